import { newId } from '@ci/application';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../../test/support/database';
import type { Sql } from '../sql';
import { accessRepository } from './pipeline.repository';

/*
 * A pipeline's content revision (Migration20261125090000, ADR 0016), as the access statement reads it: it
 * changes with every write to what an answer about the pipeline's builds shows, made by plain SQL (as
 * another process or an operator would), and with nothing else.
 */

let db: TestDatabase;
let sql: Sql;
let organizationId: string;
let userId: string;
let agentId: string;
let pipelineId: string;
let otherPipelineId: string;
let buildId: string;
let jobId: string;

async function newPipeline(slug: string): Promise<string> {
  const id = newId();
  await sql.query(
    `insert into pipelines (id, organization_id, slug, name, repository, steps, provider, webhook_token, created_at)
     values ($1, $2, $3, $3, 'git@example.com:a/b.git', '[]', '{}', $4, now())`,
    [id, organizationId, slug, id.replaceAll('-', '')],
  );
  return id;
}

async function insertBuild(pipeline: string, number: number): Promise<string> {
  const id = newId();
  await sql.query(
    `insert into builds (id, organization_id, pipeline_id, number, state, commit, branch, env, meta_data, source,
       creator_id, created_at)
     values ($1, $2, $3, $4, 'scheduled', 'HEAD', 'main', '{}', '{}', 'api', $5, now())`,
    [id, organizationId, pipeline, number, userId],
  );
  return id;
}

async function insertJob(build: string): Promise<string> {
  const id = newId();
  await sql.query(
    `insert into jobs (id, build_id, position, type, state, agent_query_rules, env, agent_id, created_at)
     values ($1, $2, 0, 'script', 'scheduled', '{}', '{}', $3, now())`,
    [id, build, agentId],
  );
  return id;
}

/** As the use cases read it: with the access. */
async function revisionOf(slug: string): Promise<string | null> {
  const facts = await accessRepository(sql).pipeline({
    userId,
    organizationSlug: 'acme',
    pipelineSlug: slug,
  });
  return facts?.contentRevision ?? null;
}

beforeAll(async () => {
  db = await freshDatabase();
  sql = db.database.sql;
  organizationId = (await db.useCases.admin.createOrganization({ name: 'Acme', slug: 'acme' })).id;
  userId = (await db.useCases.admin.createUser({ name: 'Ada', email: 'ada@acme.test' })).id;
  await db.useCases.admin.addMember({ organization: 'acme', email: 'ada@acme.test', role: 'admin' });
  agentId = newId();
  await sql.query(
    `insert into agents (id, organization_id, name, connection_state, tags, created_at)
     values ($1, $2, 'agent-1', 'connected', '{}', now())`,
    [agentId, organizationId],
  );
  pipelineId = await newPipeline('web');
  otherPipelineId = await newPipeline('other');
  buildId = await insertBuild(pipelineId, 1);
  jobId = await insertJob(buildId);
});
afterAll(async () => {
  await db?.close();
});

let before: string | null;
beforeEach(async () => {
  before = await revisionOf('web');
});

describe("a pipeline's content revision", () => {
  it('is read with the access, and is none for a pipeline that does not exist', async () => {
    expect(before).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await revisionOf('missing')).toBeNull();
  });

  it("stays the same while nothing changes: an agent's heartbeat, an update to the same values", async () => {
    // As the agent protocol records them (a heartbeat moves `last_seen_at` and `heartbeat_at`).
    await db.database.repos.agents.touch(agentId, new Date(), 'heartbeat');
    await db.database.repos.agents.touch(agentId, new Date());
    await sql.query('update users set name = name where id = $1', [userId]);
    expect(await revisionOf('web')).toBe(before);
  });

  it("stays the same when another pipeline's builds and jobs change", async () => {
    const other = await insertBuild(otherPipelineId, 1);
    await insertJob(other);
    await sql.query("update jobs set state = 'running' where build_id = $1", [other]);
    await sql.query('delete from builds where id = $1', [other]);
    expect(await revisionOf('web')).toBe(before);
  });

  const changes: [string, () => Promise<unknown>][] = [
    ['a build is inserted', () => insertBuild(pipelineId, 100 + Math.floor(Math.random() * 1e6))],
    [
      'a build changes without changing the counts',
      () => sql.query("update builds set message = 'm' || now() where id = $1", [buildId]),
    ],
    [
      'a build changes state',
      () =>
        sql.query(
          "update builds set state = case when state = 'scheduled' then 'running' else 'scheduled' end where id = $1",
          [buildId],
        ),
    ],
    ['a job is inserted', () => insertJob(buildId)],
    [
      'a job changes without changing the counts',
      () => sql.query("update jobs set name = 'n' || now() where id = $1", [jobId]),
    ],
    ['a job is deleted', async () => sql.query('delete from jobs where id = $1', [await insertJob(buildId)])],
    [
      'a build is deleted',
      async () => sql.query('delete from builds where id = $1', [await insertBuild(pipelineId, 2_000_000)]),
    ],
    [
      'the pipeline changes',
      () => sql.query("update pipelines set name = 'Web ' || now() where id = $1", [pipelineId]),
    ],
    [
      'the counts are fixed by hand',
      () =>
        sql.query('update pipeline_counts set waiting_jobs = waiting_jobs + 1 where pipeline_id = $1', [
          pipelineId,
        ]),
    ],
    ['a user changes', () => sql.query("update users set name = 'Ada ' || now() where id = $1", [userId])],
    [
      'the organization changes',
      () => sql.query("update organizations set name = 'Acme ' || now() where id = $1", [organizationId]),
    ],
    [
      'a membership is added',
      async () => {
        const other = await db.useCases.admin.createUser({ name: 'Bo', email: `bo-${newId()}@acme.test` });
        await db.useCases.admin.addMember({ organization: 'acme', email: other.email, role: 'member' });
      },
    ],
    [
      'an agent changes',
      () =>
        sql.query(
          "update agents set connection_state = case when connection_state = 'connected' then 'disconnected' else 'connected' end where id = $1",
          [agentId],
        ),
    ],
  ];
  it.each(changes)('changes when %s', async (_change, write) => {
    await write();
    const after = await revisionOf('web');
    expect(after).toMatch(/^\d+\.\d+\.\d+$/);
    expect(after).not.toBe(before);
  });

  it('changes when an agent connects or disconnects', async () => {
    for (const event of ['disconnect', 'connect'] as const) {
      const previous = await revisionOf('web');
      await db.database.repos.agents.touch(agentId, new Date(), event);
      expect(await revisionOf('web')).not.toBe(previous);
    }
  });

  it('changes when a job moves between two states its counts tally alike', async () => {
    await sql.query("update builds set state = 'running' where id = $1", [buildId]);
    await sql.query("update jobs set state = 'running' where id = $1", [jobId]);
    const running = await revisionOf('web');
    await sql.query("update jobs set state = 'canceling' where id = $1", [jobId]);
    expect(await revisionOf('web')).not.toBe(running);
  });

  it("changes when a finished build's jobs change, are added or are deleted (no count moves)", async () => {
    const finished = await insertBuild(pipelineId, 3_000_000 + Math.floor(Math.random() * 1e6));
    await sql.query("update builds set state = 'passed' where id = $1", [finished]);
    const steps: (() => Promise<unknown>)[] = [
      () => insertJob(finished),
      () => sql.query("update jobs set state = 'passed' where build_id = $1", [finished]),
      () => sql.query('delete from jobs where build_id = $1', [finished]),
    ];
    for (const step of steps) {
      const previous = await revisionOf('web');
      await step();
      expect(await revisionOf('web')).not.toBe(previous);
    }
  });

  it('changes for a transaction that writes a build and its jobs in several statements', async () => {
    await sql.transaction(async (tx) => {
      await tx.query("update builds set message = 'one' where id = $1", [buildId]);
      await tx.query("update jobs set name = 'two' where id = $1", [jobId]);
      await tx.query("update builds set state = 'passed' where id = $1", [buildId]);
    });
    expect(await revisionOf('web')).not.toBe(before);
  });

  it('changes with a change in a transaction only when the transaction commits', async () => {
    await sql.transaction(async (tx) => {
      await tx.query("update jobs set name = 'uncommitted' where id = $1", [jobId]);
      expect(await revisionOf('web')).toBe(before);
    });
    expect(await revisionOf('web')).not.toBe(before);
  });
});
