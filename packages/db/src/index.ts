export { type DatabaseConfig, DatabaseEnv, readDatabaseConfig } from './config';
export { createRepositories, type Database, type DatabaseOptions, openDatabase } from './database';
export { type RunningDatabase, startEmbeddedPostgres } from './embedded-postgres';
export { migrationNames } from './migrations/names';
export { openPool } from './pool';
export { createSql, isUniqueViolation, type Sql } from './sql';
export { applyPendingMigrations, pendingMigrations } from './startup-migrations';
