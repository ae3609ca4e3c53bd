import { lexicographicSortSchema, printSchema } from 'graphql';
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

/** The schema, built once: every type module above adds its part to the builder. */
export const schema = builder.toSchema();

/** The schema as SDL, types in alphabetical order like the reference, for docs/api/schema.graphql. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
