import {
  buildSchema,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLScalarType,
  type GraphQLUnionType,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useCompiledQueries } from './compiled-execution';

const typeDefs = `
  scalar Stamp
  type Query {
    job(id: ID!): Job
    jobs: [Job!]
    strictJobs: [Job!]!
    boom: String
    domainBoom: String
    stamp(at: Stamp): Stamp
    nested: Nested!
  }
  type Nested { deep: Nested! failing: String! ok: String }
  union Job = CommandJob | WaitJob
  type CommandJob { id: ID! label: String! command: String }
  type WaitJob { id: ID! label: String }
`;

function schema() {
  const built = buildSchema(typeDefs);
  const jobs = [
    { kind: 'command', id: '1', label: 'build', command: 'make' },
    { kind: 'wait', id: '2', label: null },
    { kind: 'command', id: '3', label: null, command: null },
  ];
  const stamp = built.getType('Stamp') as GraphQLScalarType;
  stamp.serialize = (value) => `@${String(value)}`;
  stamp.parseValue = (value) => {
    if (typeof value !== 'string') throw new GraphQLError('Stamp must be a string');
    return value;
  };
  (built.getType('Job') as GraphQLUnionType).resolveType = (job: { kind: string }) =>
    job.kind === 'command' ? 'CommandJob' : 'WaitJob';
  const fields = (built.getType('Query') as GraphQLObjectType).getFields();
  fields.job!.resolve = async (_root, args: { id: string }) => jobs.find((job) => job.id === args.id) ?? null;
  fields.jobs!.resolve = async () => jobs;
  fields.strictJobs!.resolve = async () => jobs;
  fields.boom!.resolve = async () => {
    throw new Error('database down');
  };
  fields.domainBoom!.resolve = () => {
    throw Object.assign(new Error('No build found'), { extensions: { code: 'not_found' } });
  };
  fields.stamp!.resolve = (_root, args: { at?: string }) => args.at ?? 'now';
  fields.nested!.resolve = () => ({});
  const nested = (built.getType('Nested') as GraphQLObjectType).getFields();
  nested.deep!.resolve = () => ({});
  nested.failing!.resolve = () => null;
  nested.ok!.resolve = () => 'ok';
  return built;
}

function server(compiled: boolean) {
  return createYoga({
    schema: schema(),
    logging: false,
    maskedErrors: false,
    plugins: compiled ? [useCompiledQueries()] : [],
  });
}

const compiledServer = server(true);
const plainServer = server(false);

async function answers(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const ask = async (yoga: ReturnType<typeof server>) => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables, operationName }),
    });
    return `${response.status} ${await response.text()}`;
  };
  return { compiled: await ask(compiledServer), plain: await ask(plainServer) };
}

describe('compiled queries answer as graphql-js, to the byte', () => {
  const cases: Array<[string, string, Record<string, unknown>?, string?]> = [
    [
      'unions and __typename',
      '{ jobs { __typename ... on CommandJob { id label command } ... on WaitJob { id } } }',
    ],
    ['a null in a non-null field bubbles to the list item', '{ jobs { ... on CommandJob { label } } }'],
    ['a null in a non-null list item bubbles to the root', '{ strictJobs { ... on CommandJob { label } } }'],
    [
      'bubbling through nested non-null fields, with the error path',
      '{ nested { deep { deep { failing } } } }',
    ],
    ['sibling fields keep their values', '{ nested { ok deep { ok } } boom }'],
    [
      'a thrown error with extensions, located on a later line',
      'query Q {\n  jobs { __typename }\n\n    domainBoom\n}',
    ],
    ['errors on several fields in order', '{ a: boom b: domainBoom c: boom }'],
    ['custom scalar output and variables', 'query($at: Stamp) { stamp(at: $at) }', { at: 'x' }],
    ['a variable that does not coerce', 'query($at: Stamp) { stamp(at: $at) }', { at: 3 }],
    ['a missing required variable', 'query($id: ID!) { job(id: $id) { __typename } }', {}],
    [
      'aliases and fragments',
      'query { one: job(id: "1") { ...J } two: job(id: "2") { ...J } } fragment J on Job { __typename }',
    ],
    ['directives run on graphql-js', '{ jobs { ... on CommandJob @include(if: false) { id } __typename } }'],
    ['an unknown operation name', 'query A { boom } query B { boom }', {}, 'C'],
    ['one of several operations', 'query A { boom } query B { jobs { __typename } }', {}, 'B'],
  ];
  it.each(cases)('%s', async (_name, query, variables, operationName) => {
    const { compiled, plain } = await answers(query, variables, operationName);
    expect(compiled).toBe(plain);
  });
});
