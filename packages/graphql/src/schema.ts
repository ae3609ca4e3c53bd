import {
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { builder, encodeGlobalId } from './builder';
import './types/scalars';
import './types/user';
import './types/organization';
import './types/registry';
import './types/cluster';
import './types/pipeline';
import './types/job';
import './types/agent';
import './types/agent-token';
import './types/build';
import './types/artifact';
import './types/organization-jobs';
import './types/annotation';
import './types/rule';
import './types/notification-service';
import './types/pipeline-template';
import './types/pipeline-schedule';
import './types/suite';
import './types/team';
import './types/team-member';
import './types/organization-member';
import './types/organization-settings';
import './types/viewer';
import './query';
import './mutations/builds';
import './mutations/team-pipelines';
import './mutations/registries';
import './mutations/clusters';
import './mutations/jobs';
import './mutations/pipelines';
import './mutations/agent-tokens';
import './mutations/rules';
import './mutations/pipeline-templates';
import './mutations/pipeline-schedules';
import './mutations/team-suites';
import './mutations/teams';
import './mutations/organization-settings';
import './mutations/artifacts';
import './mutations/annotations';

/**
 * The relay plugin's connection plumbing, read in place: a connection's `edges` and `pageInfo` and an
 * edge's `node` are the parent's property of that name, but the plugin gives each a resolver
 * (`(parent) => parent.edges`, …), and a compiled query calls a resolver with its own machinery per
 * field and per edge (ADR 0010). Without one, graphql-js's default resolver reads the same property,
 * and graphql-jit reads it in place. Answers the fields it changed, for the test.
 */
export function readConnectionsInPlace(schema: GraphQLSchema): Array<GraphQLField<unknown, unknown>> {
  const changed: Array<GraphQLField<unknown, unknown>> = [];
  const readInPlace = (field: GraphQLField<unknown, unknown> | undefined) => {
    if (!field?.resolve) return;
    field.resolve = undefined;
    changed.push(field);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.getInterfaces().some((iface) => iface.name === 'Connection')) continue;
    const fields = type.getFields();
    readInPlace(fields.pageInfo);
    const edge = fields.edges && getNamedType(fields.edges.type);
    if (isObjectType(edge)) readInPlace(edge.getFields().node);
    readInPlace(fields.edges);
  }
  return changed;
}

/**
 * Node ids answered without a promise (ADR 0011). The relay plugin resolves every Node type's `id` with
 * an async function (it awaits the id the type's `id.resolve` gives, then encodes it), so a compiled
 * query waits for a promise per object: four per build on the bench's list page. Each type's
 * `id.resolve` here is synchronous, so its id is encoded at once, as the plugin would:
 * `encodeGlobalId(type, String(id))`. A type whose objects carry their global id (extension
 * `idReadInPlace`: `BuildNode`, `JobNode`) has it read in place, without a resolver (ADR 0010).
 * Answers the types it changed, for the test.
 */
export function idsWithoutPromises(schema: GraphQLSchema): string[] {
  const changed: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.getInterfaces().some((iface) => iface.name === 'Node')) continue;
    const id = type.getFields().id;
    const options = type.extensions.pothosOptions as { id?: { resolve?: NodeIdResolver } } | undefined;
    const resolveId = options?.id?.resolve;
    if (!id || !resolveId || id.resolve?.constructor.name !== 'AsyncFunction') continue;
    const typename = type.name;
    changed.push(typename);
    if (type.extensions.idReadInPlace === true) {
      id.resolve = undefined;
      continue;
    }
    id.resolve = (parent, args, context, info) => {
      const raw = resolveId(parent, args, context, info);
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'bigint') {
        throw new Error(`${typename}.id resolved to ${typeof raw}, not an id`);
      }
      return encodeGlobalId(typename, String(raw));
    };
  }
  return changed;
}

type NodeIdResolver = (parent: unknown, args: unknown, context: unknown, info: unknown) => unknown;

/** The schema, built once: every type module above adds its part to the builder. */
export const schema = builder.toSchema();
readConnectionsInPlace(schema);
idsWithoutPromises(schema);

/** The schema as SDL, types in alphabetical order like the reference, for docs/api/schema.graphql. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
