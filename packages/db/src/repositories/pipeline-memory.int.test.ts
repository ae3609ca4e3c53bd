import type { UseCases } from '@ci/application';
import { newId, type Pipeline } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeWithAdmin, freshDatabase, type TestDatabase } from '../../../../test/support/database';
import { type Database, openDatabase } from '../database';

/*
 * The pipelines a server remembers with their revisions (Migration20261121170000, ADR 0009): what the
 * access statements answer is always the row as it is, whichever process changed it.
 */

let db: TestDatabase;
/** A second server process on the same database, with its own memory. */
let other: Database;
let useCases: UseCases;
let userId: string;
let organizationId: string;

beforeAll(async () => {
  db = await freshDatabase();
  other = await openDatabase({ url: db.url, dataDir: '', embeddedPort: 0, poolMax: 2 });
  useCases = db.useCases;
  userId = (await acmeWithAdmin(useCases)).user.id;
  organizationId = (await db.database.repos.organizations.findBySlug('acme'))!.id;
});
afterAll(async () => {
  await other?.close();
  await db?.close();
});

/** A pipeline with every field set (none null or empty), inserted as the repositories insert one. */
async function insertPipeline(slug: string, id = newId()): Promise<Pipeline> {
  const pipeline: Pipeline = {
    id,
    organizationId,
    slug,
    name: `Pipeline ${slug} — ünïcode`,
    description: 'Builds "everything"',
    repository: 'git@example.com:acme/web.git',
    defaultBranch: 'main',
    branchConfiguration: 'main release/*',
    steps: [{ type: 'command', key: 'test', label: ':test:', command: 'make test' } as never],
    provider: { id: 'github', settings: { trigger_mode: 'code', nested: { a: [1, 2] } } } as never,
    webhookToken: newId().replaceAll('-', ''),
    skipQueuedBranchBuilds: true,
    skipQueuedBranchBuildsFilter: '!main',
    cancelRunningBranchBuilds: true,
    cancelRunningBranchBuildsFilter: 'feature/*',
    nextBuildNumber: 42,
    archivedAt: new Date('2026-03-04T05:06:07.089Z'),
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    env: { CI: 'true', QUOTE: 'a"b\\c' },
    visibility: 'public',
    tags: ['fast', 'linux'],
    clusterId: newId(),
    allowRebuilds: false,
    configuration: 'steps:\n  - command: make test\n',
    createdById: userId,
  };
  await db.database.repos.pipelines.insert(pipeline);
  return pipeline;
}

const read = (database: Database, pipelineSlug: string) =>
  database.repos.access.pipeline({ userId, organizationSlug: 'acme', pipelineSlug });

const revisionOf = async (slug: string) =>
  (
    await db.database.sql.query<{ revision: string }>('select revision from pipelines where slug = $1', [
      slug,
    ])
  )[0]?.revision;

describe('remembered pipelines', () => {
  it('read as the plain select reads them: first from the row, then from memory', async () => {
    const inserted = await insertPipeline('every-field');
    const plain = await db.database.repos.pipelines.findBySlug(organizationId, 'every-field');
    expect(plain).toEqual(inserted);
    const first = await read(db.database, 'every-field');
    const second = await read(db.database, 'every-field');
    expect(first?.pipeline).toEqual(plain);
    expect(second?.pipeline).toEqual(plain);
  });

  it('are taken from memory while the revision holds, and read again once it moves', async () => {
    await insertPipeline('unchanged');
    await read(db.database, 'unchanged');
    const sql = db.database.sql;
    // A change the revision does not see (its trigger off) is not read: the memory answers.
    await sql.transaction(async (tx) => {
      await tx.query('alter table pipelines disable trigger pipelines_revised');
      await tx.query(`update pipelines set name = 'Unseen' where slug = 'unchanged'`);
      await tx.query('alter table pipelines enable trigger pipelines_revised');
    });
    expect((await read(db.database, 'unchanged'))?.pipeline?.name).toBe('Pipeline unchanged — ünïcode');
    // Any change through the trigger is a new revision: read afresh, by every process.
    await sql.query(`update pipelines set description = 'Seen' where slug = 'unchanged'`);
    const after = (await read(db.database, 'unchanged'))?.pipeline;
    expect(after).toMatchObject({ name: 'Unseen', description: 'Seen' });
    expect(await read(db.database, 'unchanged')).toEqual(await read(other, 'unchanged'));
  });

  it('show a change made by another process at once', async () => {
    await insertPipeline('elsewhere');
    expect((await read(db.database, 'elsewhere'))?.pipeline?.archivedAt).not.toBeNull();
    const updated = await other.repos.pipelines.update({
      id: (await read(other, 'elsewhere'))!.pipeline!.id,
      change: (pipeline) => ({ ...pipeline, archivedAt: null, tags: null, env: {} }),
    });
    expect(updated).not.toBe('not_found');
    expect((await read(db.database, 'elsewhere'))?.pipeline).toMatchObject({
      archivedAt: null,
      tags: null,
      env: {},
    });
  });

  it('read the build counter afresh: a build taking a number is no new revision', async () => {
    await insertPipeline('counted');
    expect((await read(db.database, 'counted'))?.pipeline?.nextBuildNumber).toBe(42);
    const revision = await revisionOf('counted');
    await db.database.sql.query(
      `update pipelines set next_build_number = next_build_number + 1 where slug = 'counted'`,
    );
    expect(await revisionOf('counted')).toBe(revision);
    expect((await read(db.database, 'counted'))?.pipeline?.nextBuildNumber).toBe(43);
  });

  it('never mistake a pipeline deleted and inserted again, even under its old id, for the one remembered', async () => {
    const first = await insertPipeline('again');
    await read(db.database, 'again');
    await db.database.repos.pipelines.delete(first.id);
    expect((await read(db.database, 'again'))?.pipeline).toBeNull();
    const sameId = { ...(await insertPipeline('again', first.id)) };
    await db.database.sql.query(`update pipelines set name = 'Second' where id = $1`, [sameId.id]);
    expect((await read(db.database, 'again'))?.pipeline?.name).toBe('Second');
    await db.database.repos.pipelines.delete(sameId.id);
    await insertPipeline('again', first.id);
    // Same id and slug, fields as the first: the revision alone tells them apart.
    expect((await read(db.database, 'again'))?.pipeline?.name).toBe('Pipeline again — ünïcode');
  });

  it('are revised on a change to any column but the build counter', async () => {
    const columns = await db.database.sql.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'pipelines'`,
    );
    const [trigger] = await db.database.sql.query<{ definition: string }>(
      `select pg_get_triggerdef(oid) as definition from pg_trigger where tgname = 'pipelines_revised'`,
    );
    const watched = columns
      .map((column) => column.column_name)
      .filter((name) => name !== 'next_build_number' && name !== 'revision');
    expect(watched.length).toBeGreaterThan(20);
    for (const name of watched) {
      expect(trigger?.definition).toContain(`old.${name}`);
      expect(trigger?.definition).toMatch(new RegExp(`UPDATE OF [^O]*\\b${name}\\b`));
    }
    expect(trigger?.definition).not.toContain('next_build_number');
  });
});
