import { notFound } from '@ci/domain';
import {
  buildSchema,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLScalarType,
  type GraphQLUnionType,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it, vi } from 'vitest';
import { useCompiledQueries } from './compiled-execution';
import { maskError } from './errors';

/** How many times a query compiled by graphql-jit ran: the compiled path, as opposed to yoga's executor. */
const compiledRuns = vi.hoisted(() => ({ count: 0 }));

vi.mock('graphql-jit', async (importOriginal) => {
  const jit = await importOriginal<typeof import('graphql-jit')>();
  return {
    ...jit,
    compileQuery: (...args: Parameters<typeof jit.compileQuery>) => {
      const compiled = jit.compileQuery(...args);
      if (!('query' in compiled)) return compiled;
      const { query } = compiled;
      return {
        ...compiled,
        query: (...run: Parameters<typeof query>) => {
          compiledRuns.count++;
          return query(...run);
        },
      };
    },
  };
});

const typeDefs = `
  scalar Stamp
  type Query {
    job(id: ID!): Job
    jobs: [Job!]
    strictJobs: [Job!]!
    boom: String
    domainBoom: String
    refused: String
    stamp(at: Stamp): Stamp
    nested: Nested!
  }
  type Mutation { touch: String }
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
  fields.refused!.resolve = async () => {
    throw notFound('build');
  };
  fields.stamp!.resolve = (_root, args: { at?: string }) => args.at ?? 'now';
  fields.nested!.resolve = () => ({});
  const nested = (built.getType('Nested') as GraphQLObjectType).getFields();
  nested.deep!.resolve = () => ({});
  nested.failing!.resolve = () => null;
  nested.ok!.resolve = () => 'ok';
  (built.getType('Mutation') as GraphQLObjectType).getFields().touch!.resolve = () => 'touched';
  return built;
}

type Masking = 'unmasked' | 'masked as in production';

function server(compiled: boolean, masking: Masking) {
  return createYoga({
    schema: schema(),
    logging: false,
    maskedErrors: masking === 'unmasked' ? false : { maskError },
    plugins: compiled ? [useCompiledQueries()] : [],
  });
}

const servers = {
  unmasked: { compiled: server(true, 'unmasked'), plain: server(false, 'unmasked') },
  'masked as in production': {
    compiled: server(true, 'masked as in production'),
    plain: server(false, 'masked as in production'),
  },
} satisfies Record<Masking, unknown>;

/** The answers of a server with and without the plugin, and which way the one with it ran the operation. */
async function answers(input: {
  masking: Masking;
  query: string;
  variables?: Record<string, unknown> | undefined;
  operationName?: string | undefined;
}) {
  const ask = async (yoga: ReturnType<typeof server>) => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: input.query,
        variables: input.variables ?? {},
        operationName: input.operationName,
      }),
    });
    return `${response.status} ${await response.text()}`;
  };
  const { compiled, plain } = servers[input.masking];
  const runsBefore = compiledRuns.count;
  const compiledAnswer = await ask(compiled);
  const ran = compiledRuns.count > runsBefore ? 'compiled' : 'on yoga';
  return { compiled: compiledAnswer, plain: await ask(plain), ran };
}

interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** which way the operation runs with the plugin */
  runs: 'compiled' | 'on yoga';
}

const cases: Case[] = [
  {
    name: 'unions and __typename',
    query: '{ jobs { __typename ... on CommandJob { id label command } ... on WaitJob { id } } }',
    runs: 'compiled',
  },
  {
    name: 'a null in a non-null field bubbles to the list item',
    query: '{ jobs { ... on CommandJob { label } } }',
    runs: 'compiled',
  },
  {
    name: 'a null in a non-null list item bubbles to the root',
    query: '{ strictJobs { ... on CommandJob { label } } }',
    runs: 'compiled',
  },
  {
    name: 'bubbling through nested non-null fields, with the error path',
    query: '{ nested { deep { deep { failing } } } }',
    runs: 'compiled',
  },
  { name: 'sibling fields keep their values', query: '{ nested { ok deep { ok } } boom }', runs: 'compiled' },
  {
    name: 'a thrown error with extensions, located on a later line',
    query: 'query Q {\n  jobs { __typename }\n\n    domainBoom\n}',
    runs: 'compiled',
  },
  {
    name: 'a domain refusal, located on a later line',
    query: 'query Q {\n  nested { ok }\n    refused\n}',
    runs: 'compiled',
  },
  { name: 'errors on several fields in order', query: '{ a: boom b: domainBoom c: boom }', runs: 'compiled' },
  {
    name: 'custom scalar output and variables',
    query: 'query($at: Stamp) { stamp(at: $at) }',
    variables: { at: 'x' },
    runs: 'compiled',
  },
  {
    name: 'a variable that does not coerce',
    query: 'query($at: Stamp) { stamp(at: $at) }',
    variables: { at: 3 },
    runs: 'on yoga',
  },
  {
    name: 'a missing required variable',
    query: 'query($id: ID!) { job(id: $id) { __typename } }',
    runs: 'on yoga',
  },
  {
    name: 'aliases and fragments',
    query: 'query { one: job(id: "1") { ...J } two: job(id: "2") { ...J } } fragment J on Job { __typename }',
    runs: 'compiled',
  },
  {
    name: 'directives run on graphql-js',
    query: '{ jobs { ... on CommandJob @include(if: false) { id } __typename } }',
    runs: 'on yoga',
  },
  { name: 'mutations run on graphql-js', query: 'mutation { touch }', runs: 'on yoga' },
  {
    name: 'an unknown operation name',
    query: 'query A { boom } query B { boom }',
    operationName: 'C',
    runs: 'on yoga',
  },
  {
    name: 'one of several operations',
    query: 'query A { boom } query B { jobs { __typename } }',
    operationName: 'B',
    runs: 'compiled',
  },
];

describe.each<Masking>(['unmasked', 'masked as in production'])(
  'compiled queries answer as graphql-js, to the byte (%s)',
  (masking) => {
    it.each(cases)('$name (runs $runs)', async ({ query, variables, operationName, runs }) => {
      const { compiled, plain, ran } = await answers({ masking, query, variables, operationName });
      expect(compiled).toBe(plain);
      expect(ran).toBe(runs);
    });
  },
);
