import type { Actor, UseCases } from '@ci/application';
import { decodeGraphqlId, encodeGraphqlId, isGraphqlType } from '@ci/domain';
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import { JOB_TYPE_NAMES } from './job-kinds';
import type { Loaders } from './loaders';
import { nodeById } from './node';

/** Public base URLs without a trailing slash, as REST builds its `url` and `web_url` on them. */
export interface PublicUrls {
  api: string;
  web: string;
}

/** What every resolver sees: who calls, the use cases, and this request's loaders. */
export interface GraphqlContext {
  actor: Actor;
  useCases: UseCases;
  urls: PublicUrls;
  loaders: Loaders;
}

/** The job union's members all carry the REST job's id, `Job---<uuid>`. */
const JOB_TYPES = new Set<string>(Object.values(JOB_TYPE_NAMES));

/**
 * Every global id is the REST `graphql_id` (decisions.md): base64 of `<Type>---<uuid>`. An id that is
 * not one decodes to an empty type, which names no object: `node` answers null for it.
 */
export function encodeGlobalId(typename: string, id: string | number | bigint): string {
  const type = JOB_TYPES.has(typename) ? 'Job' : typename;
  if (!isGraphqlType(type)) throw new Error(`${typename} has no graphql_id`);
  return encodeGraphqlId(type, String(id));
}

export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const decoded = decodeGraphqlId(globalId);
  return decoded ? { typename: decoded.type, id: decoded.id } : { typename: '', id: '' };
}

export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    ID: { Input: string; Output: string };
    /** the reference's integer past 32 bits (an artifact's size): a JSON number */
    JSInt: { Input: number; Output: number };
    JSON: { Input: unknown; Output: unknown };
    YAML: { Input: string; Output: string };
  };
  Connection: { count: number | null };
  DefaultEdgesNullability: { list: true; items: true };
  DefaultNodeNullability: true;
}>({
  plugins: [RelayPlugin],
  relay: {
    // The reference schema has `node` but no `nodes`.
    nodesQueryOptions: false,
    // The reference's clientMutationId is a String: each mutation declares and echoes its own.
    clientMutationId: 'omit',
    cursorType: 'String',
    edgeCursorType: 'String',
    pageInfoCursorType: 'String',
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    brandLoadedObjects: false,
    nodeFieldOptions: { nullable: true },
    edgesFieldOptions: { nullable: { list: true, items: true } },
    pageInfoFieldOptions: { nullable: true },
    // `node` brands what it answers with its type (node.ts): the interface needs no resolveType.
    nodeTypeOptions: { description: 'An object with an ID.' },
    nodeQueryOptions: {
      description: 'Fetches an object given its ID.',
      resolve: (_root, { id }, ctx) => nodeById(id, ctx),
    },
  },
});

/** The builder's schema types, for helpers that take a field builder. */
export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
