import type { Repositories } from '@ci/application';
import { startEmbeddedPostgres } from './embedded-postgres';
import { openPool } from './pool';
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
import { applyPendingMigrations } from './startup-migrations';

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
  sql: Sql;
  repos: Repositories;
  /** Applied migration names. */
  migrated: string[];
  ping(): Promise<void>;
  close(): Promise<void>;
}

function createRepositories(sql: Sql): Repositories {
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

/**
 * Connects (starting the embedded PostgreSQL when no URL is given), applies migrations, builds the
 * repositories over a plain pg pool: MikroORM is loaded only to apply pending migrations, then closed
 * (`@ci/db/orm`'s `openOrm` for callers that need it, e.g. the schema check of migrations.int.test.ts).
 */
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
    const pool = openPool({ url: server.url, ...(options.poolMax ? { max: options.poolMax } : {}) });
    let migrated: string[];
    try {
      migrated = await applyPendingMigrations(server.url, pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const sql = createSql(pool, options.onQuery);
    return {
      sql,
      repos: createRepositories(sql),
      migrated,
      ping: async () => {
        await sql.query('select 1');
      },
      close: async () => {
        await pool.end();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
