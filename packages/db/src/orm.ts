/**
 * MikroORM, for what needs it: applying migrations (loaded for that alone at start, startup-migrations.ts),
 * the schema check of the tests, the migration generator. A separate entry point, `@ci/db/orm`: the
 * server's bundle must not load it through `@ci/db` when no migration is pending.
 */

import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { entities } from './entities';
import { migrationsList } from './migrations';

export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  poolMax?: number;
  /** Called with each SQL statement; tests count queries with it. */
  onQuery?: (sql: string) => void;
}

export function ormConfig(options: OrmOptions): Options {
  return {
    clientUrl: options.url,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      tableName: 'schema_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    // Triggers and routines are the migrations' own (the pipeline counts' triggers, Migration20261121160000),
    // not declared on entities: the schema diff must not propose dropping them.
    schemaGenerator: { ignoreTriggers: true, ignoreRoutines: true },
    pool: { min: 0, max: options.poolMax ?? 10 },
    debug: options.onQuery ? ['query'] : false,
    logger: options.onQuery ? (message) => options.onQuery?.(message) : () => {},
    // Entities are plain schemas; no reflection or folder discovery.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  };
}

export async function openOrm(options: OrmOptions): Promise<Orm> {
  return MikroORM.init(ormConfig(options));
}

/** Applies every committed migration that has not run yet; safe to call from several processes. */
export async function migrate(orm: Orm): Promise<string[]> {
  // One migrator at a time across processes sharing the database.
  const connection = orm.em.getConnection();
  return connection.transactional(async (tx) => {
    await orm.em.getConnection().execute('select pg_advisory_xact_lock(727274)', [], 'all', tx);
    const applied = await orm.migrator.up({ transaction: tx });
    return applied.map((migration) => migration.name);
  });
}
