/**
 * The GraphQL face (Pothos schema served at /graphql over the same use cases) is issue 6 and not built
 * yet; this package exists so the dependency rules already hold it to the same boundaries.
 */
export const GRAPHQL_SCHEMA_AVAILABLE = false;
