import {
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { builder } from './builder';
import './types/scalars';
import './types/user';
import './types/organization';
import './types/registry';
import './types/pipeline';
import './types/job';
import './types/agent';
import './types/build';
import './types/team';
import './types/team-member';
import './types/organization-member';
import './types/viewer';
import './query';
import './mutations/builds';
import './mutations/team-pipelines';
import './mutations/registries';
import './mutations/jobs';

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

/** The schema, built once: every type module above adds its part to the builder. */
export const schema = builder.toSchema();
readConnectionsInPlace(schema);

/** The schema as SDL, types in alphabetical order like the reference, for docs/api/schema.graphql. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
