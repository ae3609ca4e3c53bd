import type { ListPart, PartRequest } from '@ci/application';
import { notFound } from '@ci/domain';
import { type GraphQLResolveInfo, Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  arrayConnection,
  type ConnectionArgs,
  type ConnectionResult,
  cursorFor,
  resolveConnection,
  resolveConnections,
  selectsCount,
  windowFor,
} from './connection';

const at = cursorFor;

describe('windowFor', () => {
  it.each([
    ['nothing: the default page from the start', {}, undefined, { offset: 0, limit: 30 }],
    ['first', { first: 5 }, undefined, { offset: 0, limit: 5 }],
    ['first after a cursor', { first: 5, after: at(9) }, undefined, { offset: 10, limit: 5 }],
    ['after a cursor alone: the default page', { after: at(9) }, undefined, { offset: 10, limit: 30 }],
    ['first 0', { first: 0 }, undefined, { offset: 0, limit: 0 }],
    ['first 500, the most', { first: 500 }, undefined, { offset: 0, limit: 500 }],
    ['last before a cursor', { last: 3, before: at(10) }, undefined, { offset: 7, limit: 3 }],
    ['last before a cursor near the start', { last: 30, before: at(2) }, undefined, { offset: 0, limit: 2 }],
    [
      'first and before, before inside the page',
      { first: 10, before: at(4) },
      undefined,
      { offset: 0, limit: 4 },
    ],
    ['last with a known total', { last: 4 }, 10, { offset: 6, limit: 4 }],
    ['last more than the total', { last: 40 }, 10, { offset: 0, limit: 10 }],
    ['first and last: the last of the first', { first: 10, last: 3 }, undefined, { offset: 7, limit: 3 }],
    ['after past the end of a known total', { first: 5, after: at(20) }, 10, { offset: 21, limit: 0 }],
  ])('%s', (_name, args, total, window) => {
    expect(windowFor(args, total)).toEqual({ window, needsTotal: false });
  });

  it('asks for the total when last counts from an end it does not know', () => {
    expect(windowFor({ last: 3 })).toEqual({ needsTotal: true });
  });

  it.each([
    [{ first: 501 }, 'Argument "first" must be between 0 and 500'],
    [{ first: -1 }, 'Argument "first" must be between 0 and 500'],
    [{ last: 1000 }, 'Argument "last" must be between 0 and 500'],
    [{ after: 'nope' }, 'Argument "after" is not a cursor of this connection'],
    [{ before: btoa('cursor:-1') }, 'Argument "before" is not a cursor of this connection'],
    [{ after: btoa('cursor:1.5') }, 'Argument "after" is not a cursor of this connection'],
    [{ after: btoa('cursor:01') }, 'Argument "after" is not a cursor of this connection'],
  ])('refuses %j with a 400-kind domain error', (args, message) => {
    expect(() => windowFor(args)).toThrow(expect.objectContaining({ kind: 'bad_request', message }));
  });
});

describe('connections', () => {
  const items = Array.from({ length: 7 }, (_, i) => `item ${i}`);

  it('page an array with cursors that continue where the last page ended', () => {
    const first = arrayConnection({ first: 3 }, items);
    expect(first.edges.map((edge) => edge.node)).toEqual(['item 0', 'item 1', 'item 2']);
    expect(first).toMatchObject({
      count: 7,
      pageInfo: { hasPreviousPage: false, hasNextPage: true, startCursor: at(0), endCursor: at(2) },
    });
    const next = arrayConnection({ first: 10, after: first.pageInfo.endCursor }, items);
    expect(next.edges.map((edge) => edge.node)).toEqual(['item 3', 'item 4', 'item 5', 'item 6']);
    expect(next.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const empty = arrayConnection({ first: 0 }, items);
    expect(empty.pageInfo).toMatchObject({ startCursor: null, endCursor: null, hasNextPage: true });
  });

  it('read a use case once, or twice when last counts from the end', async () => {
    const windows: unknown[] = [];
    const read = async (window: { offset: number; limit: number }) => {
      windows.push(window);
      return { items: items.slice(window.offset, window.offset + window.limit), totalCount: items.length };
    };
    const first = await resolveConnection({ first: 2, after: at(1) }, read);
    expect(first.edges.map((edge) => edge.node)).toEqual(['item 2', 'item 3']);
    expect(windows).toEqual([{ offset: 2, limit: 2 }]);
    windows.length = 0;
    const last = await resolveConnection({ last: 2 }, read);
    expect(last.edges.map((edge) => edge.node)).toEqual(['item 5', 'item 6']);
    expect(last.edges.map((edge) => edge.cursor)).toEqual([at(5), at(6)]);
    expect(windows).toEqual([
      { offset: 0, limit: 0 },
      { offset: 5, limit: 2 },
    ]);
  });
});

describe('batched connections', () => {
  const lists: Record<string, string[]> = {
    a: Array.from({ length: 3 }, (_, i) => `a${i}`),
    b: Array.from({ length: 4 }, (_, i) => `b${i}`),
  };
  const reader = () => {
    const asked: PartRequest[][] = [];
    const read = async (requests: readonly PartRequest[]): Promise<Array<ListPart<string>>> => {
      asked.push([...requests]);
      return requests.map(({ parentId, window, withTotal }) => {
        const list = lists[parentId];
        if (!list) return notFound('pipeline');
        return {
          items: list.slice(window.offset, window.offset + window.limit),
          totalCount: withTotal ? list.length : null,
        };
      });
    };
    return { asked, read };
  };
  const summary = (result: ConnectionResult<string> | Error) =>
    result instanceof Error
      ? result.message
      : {
          nodes: result.edges.map((edge) => edge.node),
          count: result.count,
          hasPreviousPage: result.pageInfo.hasPreviousPage,
          hasNextPage: result.pageInfo.hasNextPage,
          startCursor: result.pageInfo.startCursor,
          endCursor: result.pageInfo.endCursor,
        };

  it.each([
    ['a list one longer than the page goes on', 3, 'b', true],
    ['a list as long as the page ends there', 3, 'a', false],
    ['a list shorter than the page ends there', 5, 'b', false],
  ])(
    'without count, reads one row past the window and counts nothing: %s',
    async (_, first, parentId, next) => {
      const { asked, read } = reader();
      const [result] = (
        await resolveConnections({ args: { first }, parentIds: [parentId], withTotal: false, read })
      ).map(summary);
      expect(asked).toEqual([[{ parentId, window: { offset: 0, limit: first + 1 }, withTotal: false }]]);
      expect(result).toMatchObject({
        nodes: lists[parentId]?.slice(0, first),
        count: null,
        hasNextPage: next,
        hasPreviousPage: false,
        endCursor: at(Math.min(first, lists[parentId]?.length ?? 0) - 1),
      });
    },
  );

  const lastFromTheEnd = (withTotal: boolean) => ({
    name: `with last from the end${withTotal ? ' and count' : ''}, counts first, then reads the windows without counting again`,
    args: { last: 2 },
    parentIds: ['a', 'b'],
    withTotal,
    asked: [
      [
        { parentId: 'a', window: { offset: 0, limit: 0 }, withTotal: true },
        { parentId: 'b', window: { offset: 0, limit: 0 }, withTotal: true },
      ],
      [
        { parentId: 'a', window: { offset: 1, limit: 2 }, withTotal: false },
        { parentId: 'b', window: { offset: 2, limit: 2 }, withTotal: false },
      ],
    ],
    results: [
      { nodes: ['a1', 'a2'], count: 3, hasNextPage: false, hasPreviousPage: true },
      { nodes: ['b2', 'b3'], count: 4, hasNextPage: false, hasPreviousPage: true },
    ],
  });

  it.each<{
    name: string;
    args: ConnectionArgs;
    parentIds: string[];
    withTotal: boolean;
    asked: PartRequest[][];
    results: unknown[];
  }>([
    {
      name: 'with count, counts the lists and reads their windows exactly',
      args: { first: 3, after: at(0) },
      parentIds: ['b', 'a', 'gone'],
      withTotal: true,
      asked: [
        [
          { parentId: 'b', window: { offset: 1, limit: 3 }, withTotal: true },
          { parentId: 'a', window: { offset: 1, limit: 3 }, withTotal: true },
          { parentId: 'gone', window: { offset: 1, limit: 3 }, withTotal: true },
        ],
      ],
      results: [
        { nodes: ['b1', 'b2', 'b3'], count: 4, hasNextPage: false, hasPreviousPage: true },
        { nodes: ['a1', 'a2'], count: 3, hasNextPage: false, hasPreviousPage: true },
        'No pipeline found',
      ],
    },
    lastFromTheEnd(false),
    lastFromTheEnd(true),
  ])('$name', async ({ args, parentIds, withTotal, asked: expected, results: summaries }) => {
    const { asked, read } = reader();
    const results = await resolveConnections({ args, parentIds, withTotal, read });
    expect(asked).toEqual(expected);
    expect(results.map(summary)).toMatchObject(summaries);
  });

  it.each<[string, ConnectionArgs]>([
    ['counting for last from the end', { last: 2 }],
    ['counting because count is selected', { first: 2 }],
  ])('fails when a part read with its total comes without it: %s', async (_, args) => {
    const read = async (requests: readonly PartRequest[]): Promise<Array<ListPart<string>>> =>
      requests.map(() => ({ items: [], totalCount: null }));
    await expect(resolveConnections({ args, parentIds: ['a'], withTotal: true, read })).rejects.toThrow(
      'a list part read with its total came without it',
    );
  });
});

describe('selectsCount', () => {
  const infoOf = (query: string): GraphQLResolveInfo => {
    const document = parse(query);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
    const pipeline = operation.selectionSet.selections[0];
    if (pipeline?.kind !== Kind.FIELD) throw new Error('no field');
    const builds = pipeline.selectionSet?.selections.filter((s) => s.kind === Kind.FIELD);
    const fragments = Object.fromEntries(
      document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])),
    );
    return { fieldNodes: builds, fragments } as unknown as GraphQLResolveInfo;
  };

  it.each([
    ['selected', '{ pipeline { builds { count } } }', true],
    ['aliased', '{ pipeline { builds { total: count } } }', true],
    ['in an inline fragment', '{ pipeline { builds { ... on BuildConnection { count } } } }', true],
    [
      'through fragments',
      '{ pipeline { builds { ...A } } } fragment A on BuildConnection { ...B } fragment B on BuildConnection { count }',
      true,
    ],
    ['in one of two merged fields', '{ pipeline { builds { edges { cursor } } builds { count } } }', true],
    [
      'not selected',
      '{ pipeline { builds { pageInfo { hasNextPage } edges { node { jobs { count } } } } } }',
      false,
    ],
    [
      'not in a fragment',
      '{ pipeline { builds { ...A } } } fragment A on BuildConnection { edges { cursor } }',
      false,
    ],
  ])('sees count %s', (_, query, expected) => {
    expect(selectsCount(infoOf(query))).toBe(expected);
  });
});
