import type { Repositories } from '@ci/application';
import type pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
import { type EntityManagerSource, migrate, openOrm, unitsOfWork } from './orm';
import { accessTokenRepository } from './repositories/access-token.repository';
import { agentRepository } from './repositories/agent.repository';
import { annotationRepository } from './repositories/annotation.repository';
import { artifactRepository } from './repositories/artifact.repository';
import { buildRepository } from './repositories/build.repository';
import { buildMetaDataRepository } from './repositories/build-meta-data.repository';
import { clusterRepository } from './repositories/cluster.repository';
import { idempotencyKeyRepository } from './repositories/idempotency-key.repository';
import { organizationRepository, userRepository } from './repositories/identity.repository';
import { badgeRepository, sourceWebhookRepository } from './repositories/inbound.repository';
import { jobRepository } from './repositories/job.repository';
import { lookupRepository } from './repositories/lookup.repository';
import { notificationServiceRepository } from './repositories/notification-service.repository';
import { organizationJobRepository } from './repositories/organization-job.repository';
import { organizationMemberRepository } from './repositories/organization-member.repository';
import { organizationSettingsRepository } from './repositories/organization-settings.repository';
import { accessRepository, pipelineRepository } from './repositories/pipeline.repository';
import { pipelineScheduleRepository } from './repositories/pipeline-schedule.repository';
import { pipelineTemplateRepository } from './repositories/pipeline-template.repository';
import { pipelineTriggerRepository } from './repositories/pipeline-trigger.repository';
import { rateLimitRepository } from './repositories/rate-limit.repository';
import { registryRepository } from './repositories/registry.repository';
import { ruleRepository } from './repositories/rule.repository';
import { suiteRepository } from './repositories/suite.repository';
import { teamRepository } from './repositories/team.repository';
import { teamPipelineRepository } from './repositories/team-pipeline.repository';
import { webSessionRepository } from './repositories/web-session.repository';
import { createSql, type Sql } from './sql';

export interface DatabaseOptions {
  /** An external PostgreSQL; without it the embedded one in `dataDir` is started (or attached to). */
  url?: string;
  dataDir: string;
  embeddedPort: number;
  embeddedDatabase?: string;
  /** See `EmbeddedPostgresOptions.whenRunning`: a server refuses, the CLI attaches (the default). */
  whenEmbeddedRunning?: 'attach' | 'refuse';
  poolMax?: number;
  log?: (message: string) => void;
  onQuery?: (sql: string) => void;
}

export interface Database {
  /** where the database is (the embedded one's address when it was started here) */
  url: string;
  sql: Sql;
  repos: Repositories;
  /** Applied migration names. */
  migrated: string[];
  /**
   * Runs `next` (a request's work) in a unit of work of its own: the repositories it calls share one
   * EntityManager fork. Outside one, each repository call forks its own.
   */
  requestContext<T>(next: () => T): T;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Asks the embedded PostgreSQL this process started to stop, without waiting (`RunningDatabase`). */
  stopAtOnce(): void;
}

function createRepositories(em: EntityManagerSource, sql: Sql): Repositories {
  return {
    accessTokens: accessTokenRepository(sql),
    webSessions: webSessionRepository(sql),
    users: userRepository(em),
    organizations: organizationRepository(em),
    teams: teamRepository(em),
    pipelines: pipelineRepository(sql),
    teamPipelines: teamPipelineRepository(em),
    access: accessRepository(sql),
    builds: buildRepository(sql),
    registries: registryRepository(em),
    clusters: clusterRepository(em),
    rateLimits: rateLimitRepository(sql),
    idempotencyKeys: idempotencyKeyRepository(sql),
    organizationMembers: organizationMemberRepository(em),
    organizationSettings: organizationSettingsRepository(em),
    lookups: lookupRepository(em, sql),
    jobs: jobRepository(sql),
    buildMetaData: buildMetaDataRepository(sql),
    agents: agentRepository(em, sql),
    organizationJobs: organizationJobRepository(em),
    rules: ruleRepository(em),
    pipelineTemplates: pipelineTemplateRepository(em),
    suites: suiteRepository(em),
    annotations: annotationRepository(sql),
    artifacts: artifactRepository(sql),
    notificationServices: notificationServiceRepository(em, sql),
    sourceWebhooks: sourceWebhookRepository(sql),
    pipelineTriggers: pipelineTriggerRepository(em, sql),
    // A tick's repositories are these over its transaction's connection.
    pipelineSchedules: pipelineScheduleRepository(em, sql, (tx) => createRepositories(em, tx)),
    badges: badgeRepository(sql),
  };
}

/**
 * Connects (starting the embedded PostgreSQL when no URL is given), opens MikroORM for the life of the
 * process and applies pending migrations with its migrator. The repositories of the CRUD paths work
 * through its EntityManager; the hot statements (builds, jobs, access, rate limits) are SQL on its pool.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const server = options.url
    ? { url: options.url, owned: false, stop: async () => {}, stopAtOnce: () => {} }
    : await startEmbeddedPostgres({
        dataDir: options.dataDir,
        port: options.embeddedPort,
        database: options.embeddedDatabase ?? 'ci',
        whenRunning: options.whenEmbeddedRunning ?? 'attach',
        ...(options.log ? { log: options.log } : {}),
      });
  try {
    const orm = await openOrm({
      url: server.url,
      ...(options.poolMax ? { poolMax: options.poolMax } : {}),
      ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    });
    let migrated: string[];
    let pool: pg.Pool;
    try {
      migrated = await migrate(orm);
      // One pool for the process: the hand-written statements run on the ORM's.
      pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
    } catch (error) {
      await orm.close(true);
      throw error;
    }
    const sql = createSql(pool, options.onQuery);
    const units = unitsOfWork(orm);
    return {
      url: server.url,
      sql,
      repos: createRepositories(units.entityManager, sql),
      migrated,
      requestContext: units.run,
      ping: async () => {
        await sql.query('select 1');
      },
      close: async () => {
        await orm.close(true);
        await server.stop();
      },
      stopAtOnce: server.stopAtOnce,
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
