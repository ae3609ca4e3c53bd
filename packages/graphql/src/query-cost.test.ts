import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { costing, operationCost } from './query-cost';
import { schema } from './schema';

const cost = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  operationCost({ schema, document: parse(query), variables, operationName: operationName ?? null });

describe('operationCost', () => {
  it.each([
    ['a scalar', '{ build(slug: "a/b/1") { number } }', 2],
    ['introspection costs nothing', '{ __typename __schema { types { name } } }', 0],
    ['nested objects add up', '{ build(slug: "a/b/1") { number pipeline { slug name } } }', 5],
    [
      'a connection counts its selection once per item asked for',
      '{ build(slug: "a/b/1") { pipeline { builds(first: 10) { edges { node { number } } } } } }',
      1 + (1 + (1 + 10 * (1 + (1 + 1)))),
    ],
    [
      'a connection without first or last counts the default page size',
      '{ build(slug: "a/b/1") { pipeline { builds { edges { node { number } } } } } }',
      1 + (1 + (1 + 30 * (1 + (1 + 1)))),
    ],
    [
      'last counts like first, the larger of the two wins',
      '{ build(slug: "a/b/1") { jobs(first: 2, last: 5) { count } } }',
      1 + (1 + 5 * 1),
    ],
    [
      'fragments count as the fields they hold',
      '{ build(slug: "a/b/1") { ...F } } fragment F on Build { number branch }',
      3,
    ],
    [
      'fragments on every type of a union all count',
      '{ job(uuid: "x") { ... on JobTypeCommand { label command } ... on JobTypeWait { label } } }',
      4,
    ],
  ])('%s', (_name, query, expected) => {
    expect(cost(query)).toBe(expected);
  });

  it('reads page sizes passed as variables, as the execution will', () => {
    const query = 'query($n: Int) { build(slug: "a/b/1") { jobs(first: $n) { count } } }';
    expect(cost(query, { n: 400 })).toBe(1 + (1 + 400 * 1));
    expect(cost(query, { n: 2 })).toBe(1 + (1 + 2 * 1));
    expect(cost(query, {})).toBe(1 + (1 + 30 * 1));
  });

  it('says whether a variable decided the cost: only then may the same document cost otherwise', () => {
    const of = (query: string, variables: Record<string, unknown> = {}) =>
      costing({ schema, document: parse(query), variables, operationName: null });
    expect(of('query($n: Int) { build(slug: "a/b/1") { jobs(first: $n) { count } } }', { n: 2 })).toEqual({
      cost: 1 + (1 + 2 * 1),
      readsVariables: true,
    });
    expect(of('query($s: ID!) { build(slug: $s) { jobs(first: 2) { count } } }', { s: 'a/b/1' })).toEqual({
      cost: 1 + (1 + 2 * 1),
      readsVariables: false,
    });
    expect(of('{ build(slug: "a/b/1") { ...F } } fragment F on Build { jobs(last: $n) { count } }')).toEqual({
      cost: 1 + (1 + 30 * 1),
      readsVariables: true,
    });
  });

  it('multiplies nested connections', () => {
    const query = `{ build(slug: "a/b/1") { pipeline { builds(first: 500) { edges { node {
      jobs(first: 500) { edges { node { ... on JobTypeCommand { label } } } } } } } } } }`;
    expect(cost(query)).toBeGreaterThan(500 * 500);
  });

  it('costs the operation asked for by name, and mutations from the mutation root', () => {
    const document = `query A { build(slug: "a/b/1") { number } }
      mutation B { buildCancel(input: { id: "x" }) { build { number state } } }`;
    expect(cost(document, {}, 'A')).toBe(2);
    expect(cost(document, {}, 'B')).toBe(1 + (1 + 2));
  });

  it('stops at fragments that spread themselves', () => {
    expect(
      cost('{ build(slug: "a/b/1") { ...F } } fragment F on Build { number rebuiltFrom { ...F } }'),
    ).toBe(1 + (1 + 1));
  });
});
