import { readFileSync } from 'node:fs';
import { type DocumentNode, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { keepsAnswer, SHOWN_BY_REVISION } from './kept-answers';
import { schema } from './schema';

const keeps = (query: string) => {
  const document: DocumentNode = parse(query);
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  return keepsAnswer(document, operation as OperationDefinitionNode);
};

const bench = (name: string) =>
  `${readFileSync(new URL(`../../../bench/graphql/${name}.graphql`, import.meta.url), 'utf8')}\n${readFileSync(
    new URL('../../../bench/graphql/build-fields.graphql', import.meta.url),
    'utf8',
  )}`;

describe('keepsAnswer', () => {
  it("keeps the bench's list by pipeline and by build, fragments and all", () => {
    expect(keeps(bench('list-pipeline'))).toBe(true);
    expect(keeps(bench('list-via-build'))).toBe(true);
  });

  it('keeps a query about one pipeline named by its slug, with @include and @skip', () => {
    expect(keeps('{ pipeline(slug: "acme/web") { name builds(first: 2) { count } } }')).toBe(true);
    expect(
      keeps(
        'query ($x: Boolean!) { pipeline(slug: "acme/web") { name @include(if: $x) slug @skip(if: $x) } }',
      ),
    ).toBe(true);
  });

  it('keeps nothing that does not name one pipeline by its slug alone', () => {
    expect(keeps('{ pipeline(uuid: "u") { name } }')).toBe(false);
    expect(keeps('{ pipeline(slug: "acme/web", uuid: "u") { name } }')).toBe(false);
    expect(keeps('{ a: pipeline(slug: "acme/web") { name } b: pipeline(slug: "acme/api") { name } }')).toBe(
      false,
    );
    expect(keeps('{ pipeline(slug: "acme/web") { name } viewer { user { name } } }')).toBe(false);
    expect(keeps('{ organization(slug: "acme") { name } }')).toBe(false);
    expect(keeps('mutation { buildCancel(input: { id: "x" }) { build { id } } }')).toBe(false);
    expect(keeps('{ pipeline(slug: "acme/web") @include(if: true) { name } }')).toBe(false);
  });

  it('keeps nothing that shows what the revision does not stand for', () => {
    for (const selection of [
      'teams(first: 1) { count }',
      'nextBuildNumber',
      'organization { teams(first: 1) { count } }',
      'builds(first: 1) { edges { node { createdBy { ... on User { builds(first: 1) { count } } } } } }',
      'builds(first: 1) { edges { node { jobs(first: 1) { edges { node { ... on JobTypeCommand { agent { heartbeatAt } } } } } } } }',
      'builds(first: 1) { edges { node { jobs(first: 1) { edges { node { ... on JobTypeCommand { agent { job { __typename } } } } } } } } }',
      'nope',
    ]) {
      expect(keeps(`{ pipeline(slug: "acme/web") { ${selection} } }`), selection).toBe(false);
    }
  });

  it('looks into every fragment of the document, and refuses unknown directives', () => {
    expect(
      keeps(
        '{ pipeline(slug: "acme/web") { ...P } } fragment P on Pipeline { name } fragment Q on Pipeline { teams(first: 1) { count } }',
      ),
    ).toBe(false);
    expect(keeps('{ pipeline(slug: "acme/web") { name @deprecated } }')).toBe(false);
  });

  it('lists only fields the schema has (a renamed field keeps nothing, never something else)', () => {
    for (const [name, fields] of Object.entries(SHOWN_BY_REVISION)) {
      const type = schema.getType(name);
      const known = type && 'getFields' in type ? Object.keys(type.getFields()) : [];
      for (const field of fields) expect(known, `${name}.${field}`).toContain(field);
    }
  });
});
