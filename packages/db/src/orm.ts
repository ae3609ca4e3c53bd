/**
 * MikroORM: the entities, the migrations, and the EntityManager the repositories work through. One
 * instance per open database, for the life of the process (database.ts).
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { Migrator } from '@mikro-orm/migrations';
import {
  DriverException,
  type EntityData,
  type EntityManager,
  type EntityName,
  type ForeignKeyConstraintViolationException,
  MikroORM,
  type Options,
  type QBFilterQuery,
  type UniqueConstraintViolationException,
} from '@mikro-orm/postgresql';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
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
  const { onQuery } = options;
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
    // graphile-worker's schema is its own migrations' (migrate, below).
    schemaGenerator: { ignoreTriggers: true, ignoreRoutines: true, ignoreSchema: ['graphile_worker'] },
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Sees each statement as sent, without the logger's decoration.
    ...(onQuery
      ? {
          onQuery: (sql: string) => {
            onQuery(sql);
            return sql;
          },
        }
      : {}),
    logger: () => {},
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
  // One migrator at a time across processes sharing the database: an advisory lock held by a session of
  // its own, so that the migrator's checks and its transaction need no more than one of the pool's.
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(727274)');
    // The job queue's schema first (graphile-worker's own migrations): the notification triggers call its
    // `add_job` in the transactions that change builds, jobs and agents (ADR 0019).
    await runMigrations({
      connectionString: orm.config.get('clientUrl'),
      maxPoolSize: 1,
      logger: new Logger(() => () => {}),
    });
    const applied = await orm.migrator.up();
    return applied.map((migration) => migration.name);
  } finally {
    // Ending the session releases the lock.
    await lock.end();
  }
}

/** Gives the EntityManager of the unit of work at hand. */
export type EntityManagerSource = () => EntityManager;

/** A request's unit of work, and where its repositories get their EntityManager. */
export interface UnitsOfWork {
  /** Runs `next` (a request's work) in a unit of work of its own. */
  run<T>(next: () => T): T;
  entityManager: EntityManagerSource;
}

/**
 * One EntityManager fork per request (its identity map never outlives it), made when a repository first
 * asks: most hot requests run only hand-written statements and need none. Outside a request (CLI, timers,
 * tests) each call forks its own. Repositories write with native statements, never by flushing managed
 * entities; a read of rows the same unit of work changed passes `refresh`.
 */
export function unitsOfWork(orm: Orm): UnitsOfWork {
  const current = new AsyncLocalStorage<{ em?: EntityManager }>();
  return {
    run: (next) => current.run({}, next),
    entityManager: () => {
      const unit = current.getStore();
      if (!unit) return orm.em.fork();
      unit.em ??= orm.em.fork();
      return unit.em;
    },
  };
}

/**
 * A QueryBuilder statement's answer, its failure converted to MikroORM's exceptions as the
 * EntityManager's own methods convert theirs (`execute()` rejects with the driver's error).
 */
export async function converted<T>(em: EntityManager, statement: Promise<T>): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    throw error instanceof Error && !(error instanceof DriverException)
      ? em.getDriver().convertException(error)
      : error;
  }
}

/** Whether `error` is MikroORM's exception `kind` for the constraint so named (PostgreSQL names it). */
export function violates(
  error: unknown,
  kind: typeof UniqueConstraintViolationException | typeof ForeignKeyConstraintViolationException,
  constraint: string,
): boolean {
  return error instanceof kind && (error as { constraint?: unknown }).constraint === constraint;
}

/**
 * Changes the row `where` selects in one statement and answers it as changed (null: no such row),
 * replacing what the unit of work held of it. Only the named fields change, so concurrent changes of
 * the others stay.
 */
export async function updateReturning<Entity extends object>(
  em: EntityManager,
  entity: EntityName<Entity>,
  where: QBFilterQuery<Entity>,
  changes: EntityData<Entity>,
): Promise<Entity | null> {
  const named: EntityData<Entity> = {};
  for (const [key, value] of Object.entries(changes))
    if (value !== undefined) Object.assign(named, { [key]: value });
  const qb = em.createQueryBuilder(entity);
  const statement = Object.keys(named).length ? qb.update(named).returning('*') : qb.select('*');
  const row = await converted(em, statement.where(where).execute('get'));
  return row ? em.map(entity, row, { mapped: true }) : null;
}
