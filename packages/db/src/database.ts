import type { Repositories } from '@ci/application';
import type pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
import { migrate, type Orm, openOrm } from './orm';
import { accessTokenRepository } from './repositories/access-token.repository';
import { agentRepository } from './repositories/agent.repository';
import { buildRepository } from './repositories/build.repository';
import { organizationRepository, userRepository } from './repositories/identity.repository';
import { jobRepository } from './repositories/job.repository';
import { lookupRepository } from './repositories/lookup.repository';
import { organizationMemberRepository } from './repositories/organization-member.repository';
import { accessRepository, pipelineRepository } from './repositories/pipeline.repository';
import { rateLimitRepository } from './repositories/rate-limit.repository';
import { registryRepository } from './repositories/registry.repository';
import { teamRepository } from './repositories/team.repository';
import { teamPipelineRepository } from './repositories/team-pipeline.repository';
import { createSql, type Sql } from './sql';

export interface DatabaseOptions {
  /** An external PostgreSQL; without it the embedded one in `dataDir` is started (or attached to). */
  url?: string;
  dataDir: string;
  embeddedPort: number;
  embeddedDatabase?: string;
  poolMax?: number;
  log?: (message: string) => void;
  onQuery?: (sql: string) => void;
}

export interface Database {
  orm: Orm;
  sql: Sql;
  repos: Repositories;
  /** Applied migration names. */
  migrated: string[];
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createRepositories(sql: Sql): Repositories {
  return {
    accessTokens: accessTokenRepository(sql),
    users: userRepository(sql),
    organizations: organizationRepository(sql),
    teams: teamRepository(sql),
    pipelines: pipelineRepository(sql),
    teamPipelines: teamPipelineRepository(sql),
    access: accessRepository(sql),
    builds: buildRepository(sql),
    registries: registryRepository(sql),
    rateLimits: rateLimitRepository(sql),
    organizationMembers: organizationMemberRepository(sql),
    lookups: lookupRepository(sql),
    jobs: jobRepository(sql),
    agents: agentRepository(sql),
  };
}

/** Connects (starting the embedded PostgreSQL when no URL is given), applies migrations, builds the repositories. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const server = options.url
    ? { url: options.url, owned: false, stop: async () => {} }
    : await startEmbeddedPostgres({
        dataDir: options.dataDir,
        port: options.embeddedPort,
        database: options.embeddedDatabase ?? 'ci',
        ...(options.log ? { log: options.log } : {}),
      });
  try {
    const orm = await openOrm({ url: server.url, ...(options.poolMax ? { poolMax: options.poolMax } : {}) });
    const migrated = await migrate(orm);
    const pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
    const sql = createSql(pool, options.onQuery);
    return {
      orm,
      sql,
      repos: createRepositories(sql),
      migrated,
      ping: async () => {
        await sql.query('select 1');
      },
      close: async () => {
        await orm.close(true);
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
