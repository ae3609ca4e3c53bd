export { type DatabaseConfig, DatabaseEnv, readDatabaseConfig } from './config';
export { createRepositories, type Database, type DatabaseOptions, openDatabase } from './database';
export { type RunningDatabase, startEmbeddedPostgres } from './embedded-postgres';
export { entities } from './entities';
export { migrate, type Orm, openOrm, ormConfig } from './orm';
export { createSql, isUniqueViolation, type Sql } from './sql';
