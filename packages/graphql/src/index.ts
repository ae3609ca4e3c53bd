export type { PublicUrls } from './builder';
export { operationCost } from './query-cost';
export { printedSchema, schema } from './schema';
export {
  createGraphqlServer,
  DEFAULT_LIMITS,
  type GraphqlLimits,
  type GraphqlRequestContext,
  type GraphqlServer,
} from './server';
