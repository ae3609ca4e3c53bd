import { describe, expect, it } from 'vitest';
import { isRemembered, LONGEST_QUERY_LOOKED_INTO, namedPipeline, REMEMBERED_QUERIES } from './named-pipeline';
import { postedParams } from './posted-params';

/** As the server asks: the parameters of a JSON body. */
const pipelineNamedBy = (body: string | undefined) =>
  namedPipeline(postedParams('application/json', body))?.slugs;

const body = (query: string, variables?: unknown, operationName?: string) =>
  JSON.stringify({ query, variables, operationName });

const ACME_WEB = { organizationSlug: 'acme', pipelineSlug: 'web' };

describe('the pipeline a GraphQL request names at its root', () => {
  it('is the slug of a root pipeline field, written in the query or passed as a variable', () => {
    expect(pipelineNamedBy(body('{ pipeline(slug: "acme/web") { name } }'))).toEqual(ACME_WEB);
    expect(
      pipelineNamedBy(body('query($s: ID!) { pipeline(slug: $s) { name } }', { s: 'acme/web' })),
    ).toEqual(ACME_WEB);
    expect(pipelineNamedBy(body('query { p: pipeline(slug: "acme/web") { name } }'))).toEqual(ACME_WEB);
  });

  it("is a root build field's pipeline, with the build's number when it is one", () => {
    expect(pipelineNamedBy(body('{ build(slug: "acme/web/12") { number } }'))).toEqual({
      ...ACME_WEB,
      buildNumber: 12,
    });
    // A number that is none names no build, but the pipeline still.
    expect(pipelineNamedBy(body('{ build(slug: "acme/web/1e3") { number } }'))).toEqual(ACME_WEB);
  });

  it('is the first such root field of the operation that runs', () => {
    const query = `query A { viewer { user { name } } pipeline(slug: "acme/web") { name } build(slug: "acme/api/1") { number } }
      query B { build(slug: "acme/api/1") { number } }`;
    expect(pipelineNamedBy(body(query, undefined, 'A'))).toEqual(ACME_WEB);
    expect(pipelineNamedBy(body(query, undefined, 'B'))).toEqual({
      organizationSlug: 'acme',
      pipelineSlug: 'api',
      buildNumber: 1,
    });
    // Two operations and no name: none runs.
    expect(pipelineNamedBy(body(query))).toBeUndefined();
    expect(pipelineNamedBy(body(query, undefined, 'C'))).toBeUndefined();
  });

  it('is none where the operation names no pipeline at its root, or not by a slug it could find', () => {
    for (const request of [
      body('{ organization(slug: "acme") { pipelines(first: 1) { edges { node { name } } } } }'),
      body('{ pipeline(uuid: "0190f0e4-7f3a-7000-8000-000000000000") { name } }'),
      body('{ ... on Query { pipeline(slug: "acme/web") { name } } }'),
      body('mutation { buildCreate(input: {pipelineID: "x"}) { build { id } } }'),
      body('{ pipeline(slug: "acme") { name } }'),
      body('{ pipeline(slug: "acme/web/1") { name } }'),
      body('{ pipeline(slug: "acme//web") { name } }'),
      body('{ pipeline(slug: "/web") { name } }'),
      body('{ build(slug: "acme/web") { number } }'),
      body('{ build(slug: "acme/web/1/2") { number } }'),
      body('query($s: ID!) { pipeline(slug: $s) { name } }', { s: 42 }),
      body('query($s: ID!) { pipeline(slug: $s) { name } }'),
      body('query($s: ID!) { pipeline(slug: $s) { name } }', { other: 'acme/web' }),
    ]) {
      expect(pipelineNamedBy(request), request).toBeUndefined();
    }
  });

  it('is none for a body that is not a GraphQL request in JSON', () => {
    for (const request of [
      undefined,
      '',
      '{ pipeline(slug: "acme/web") { name } }',
      'null',
      '[]',
      '"text"',
      JSON.stringify({ query: 42 }),
      body('{ pipeline(slug: "acme/web") { name '),
    ]) {
      expect(pipelineNamedBy(request)).toBeUndefined();
    }
  });

  it('does not look into a text too long, too many tokens or too deep to parse, and never throws', () => {
    const root = '{ pipeline(slug: "acme/web") { name } }';
    const padded = `${root}${' '.repeat(LONGEST_QUERY_LOOKED_INTO)}`;
    expect(pipelineNamedBy(body(padded))).toBeUndefined();
    expect(isRemembered(padded)).toBe(false);
    // Valid documents short enough, with more tokens than the parse may read.
    const manyTokens = `{ pipeline(slug: "acme/web") { ${'a '.repeat(4_100)} } }`;
    expect(manyTokens.length).toBeLessThan(LONGEST_QUERY_LOOKED_INTO);
    expect(pipelineNamedBy(body(manyTokens))).toBeUndefined();
    const deep = `{ pipeline(slug: "acme/web") { a ${'{ a '.repeat(2_500)}${'} '.repeat(2_500)}} }`;
    expect(deep.length).toBeLessThan(LONGEST_QUERY_LOOKED_INTO);
    expect(() => pipelineNamedBy(body(deep))).not.toThrow();
    expect(pipelineNamedBy(body(deep))).toBeUndefined();
    // The same shapes, smaller, are looked into.
    expect(pipelineNamedBy(body(`{ pipeline(slug: "acme/web") { ${'a '.repeat(100)} } }`))).toEqual(ACME_WEB);
    expect(
      pipelineNamedBy(body(`{ pipeline(slug: "acme/web") { a ${'{ a '.repeat(100)}${'} '.repeat(100)}} }`)),
    ).toEqual(ACME_WEB);
  });

  it('reads each query text once while it is among the last ones used, and forgets the least used', () => {
    const texts = Array.from(
      { length: REMEMBERED_QUERIES + 5 },
      (_, i) => `query Q${i}($s: ID!) { pipeline(slug: $s) { name } }`,
    );
    for (const query of texts) {
      expect(pipelineNamedBy(body(query, { s: 'acme/web' }))).toEqual(ACME_WEB);
      expect(isRemembered(query)).toBe(true);
    }
    expect(texts.filter(isRemembered)).toEqual(texts.slice(5));
    // Remembered per text, not per request: other variables, another answer.
    const last = texts.at(-1) as string;
    expect(pipelineNamedBy(body(last, { s: 'acme/api' }))).toEqual({
      organizationSlug: 'acme',
      pipelineSlug: 'api',
    });
    // A forgotten text is read again.
    expect(pipelineNamedBy(body(texts[0] as string, { s: 'acme/api' }))).toEqual({
      organizationSlug: 'acme',
      pipelineSlug: 'api',
    });
    expect(isRemembered(texts[0] as string)).toBe(true);
    expect(isRemembered(texts[5] as string)).toBe(false);
    // A text used again is the last to be forgotten: the next new one forgets the one after it.
    expect(pipelineNamedBy(body(texts[6] as string, { s: 'acme/web' }))).toEqual(ACME_WEB);
    pipelineNamedBy(body('query Z($s: ID!) { pipeline(slug: $s) { name } }', { s: 'acme/web' }));
    expect(isRemembered(texts[6] as string)).toBe(true);
    expect(isRemembered(texts[7] as string)).toBe(false);
  });
});
