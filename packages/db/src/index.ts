export { DatabaseEnv, readDatabaseConfig } from './config';
export { type Database, openDatabase } from './database';
export { EmbeddedPostgresError, type RunningDatabase, startEmbeddedPostgres } from './embedded-postgres';
export type { Sql } from './sql';
