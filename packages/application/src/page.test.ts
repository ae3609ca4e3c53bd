import { notFound } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { type PartRequest, pageWindow, partsOf, totalsOf, windowsOf } from './page';

const request = (parentId: string, offset = 0, limit = 2, withTotal = true): PartRequest => ({
  parentId,
  window: { offset, limit },
  withTotal,
});

describe('pageWindow', () => {
  it.each([
    [
      { page: 1, perPage: 30 },
      { offset: 0, limit: 30 },
    ],
    [
      { page: 3, perPage: 10 },
      { offset: 20, limit: 10 },
    ],
    [
      { offset: 7, limit: 5 },
      { offset: 7, limit: 5 },
    ],
  ])('reads %j as the rows %j', (page, rows) => {
    expect(pageWindow(page)).toEqual(rows);
  });
});

describe('windowsOf', () => {
  it('gives the repository the windows of the parents that are not refused, in order', () => {
    const refusals = new Map([['b', notFound('team')]]);
    expect(windowsOf([request('a', 0, 2), request('b'), request('c', 4, 1)], refusals)).toEqual([
      { parentId: 'a', offset: 0, limit: 2 },
      { parentId: 'c', offset: 4, limit: 1 },
    ]);
  });
});

describe('partsOf', () => {
  it('gives each parent its own items and total, in the order asked, and refused parents their refusal', () => {
    const refusal = notFound('pipeline');
    const parts = partsOf({
      requests: [request('b'), request('a'), request('gone'), request('empty')],
      refusals: new Map([['gone', refusal]]),
      items: [
        { parent: 'a', n: 1 },
        { parent: 'b', n: 2 },
        { parent: 'a', n: 3 },
      ],
      parentOf: (item) => item.parent,
      counts: [
        { parentId: 'a', count: 5 },
        { parentId: 'b', count: 1 },
      ],
    });
    expect(parts).toEqual([
      { items: [{ parent: 'b', n: 2 }], totalCount: 1 },
      {
        items: [
          { parent: 'a', n: 1 },
          { parent: 'a', n: 3 },
        ],
        totalCount: 5,
      },
      refusal,
      { items: [], totalCount: 0 },
    ]);
  });
});

describe('totals', () => {
  it('are read only for the parents that ask for one and are not refused', async () => {
    const asked: string[][] = [];
    const counts = await totalsOf(
      [request('a'), request('b', 0, 2, false), request('gone'), request('c')],
      new Map([['gone', notFound('team')]]),
      async (parentIds) => {
        asked.push(parentIds);
        return parentIds.map((parentId) => ({ parentId, count: 3 }));
      },
    );
    expect(asked).toEqual([['a', 'c']]);
    expect(counts).toEqual([
      { parentId: 'a', count: 3 },
      { parentId: 'c', count: 3 },
    ]);
  });

  it('are not read at all when no parent asks for one', async () => {
    const counted = await totalsOf([request('a', 0, 2, false)], new Map(), async () => {
      throw new Error('counted');
    });
    expect(counted).toEqual([]);
  });

  it('are null in the parts of parents that did not ask for one', () => {
    const parts = partsOf({
      requests: [request('a', 0, 2, false), request('b')],
      refusals: new Map(),
      items: [{ parent: 'a' }],
      parentOf: (item) => item.parent,
      counts: [{ parentId: 'b', count: 0 }],
    });
    expect(parts).toEqual([
      { items: [{ parent: 'a' }], totalCount: null },
      { items: [], totalCount: 0 },
    ]);
  });
});
