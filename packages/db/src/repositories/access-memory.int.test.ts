import { type AccessTokenRepository, hashAccessTokenSecret, type PipelineSlugs } from '@ci/application';
import { newId } from '@ci/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, someoneWaitsForALock, type TestDatabase } from '../../../../test/support/database';
import { type Database, openDatabase } from '../database';
import type { Sql } from '../sql';
import { accessMemory } from './access-memory';
import { accessTokenRepository } from './access-token.repository';
import { pipelineMemory } from './pipeline-memory';

/*
 * What a token may do on a pipeline, remembered by a server with the revisions it was read at (ADR 0013,
 * Migration20261125150000): every read answers what a read with nothing remembered answers, whichever
 * process (or operator) changed what decides access.
 */

let db: TestDatabase;
let sql: Sql;
/** A second server process on the same database, with its own memory. */
let other: Database;
let organizationId: string;
let userId: string;
let pipelineId: string;
/**
 * This process's repositories, one for each of {@link READS}, each with one memory for the whole file as a
 * server has: each read is remembered, checked and read afresh on its own statements.
 */
let remembering: AccessTokenRepository[];
let tokenHash: string;
let tokenId: string;

/** A read with nothing remembered. */
const fresh = () => accessTokenRepository(sql, pipelineMemory(), accessMemory());

/** The three things a request reads with its token: the access, and beside it the content revision or a build. */
const READS: PipelineSlugs[] = [
  { organizationSlug: 'acme', pipelineSlug: 'web' },
  { organizationSlug: 'acme', pipelineSlug: 'web', contentRevision: true },
  { organizationSlug: 'acme', pipelineSlug: 'web', buildNumber: 1 },
];

/** Reads everything once, so that this process remembers the token's access. */
async function remember(): Promise<void> {
  for (const [index, read] of READS.entries()) {
    const answer = await remembering[index]!.findByHash(tokenHash, read);
    expect(answer?.pipelineAccess?.facts?.pipeline?.slug).toBe('web');
  }
}

/** Each read as this process answers it, checked against a read with nothing remembered; the access read. */
async function read() {
  const answers = [];
  for (const [index, readAhead] of READS.entries()) {
    const answer = await remembering[index]!.findByHash(tokenHash, readAhead);
    expect(answer).toEqual(await fresh().findByHash(tokenHash, readAhead));
    answers.push(answer);
  }
  return answers[0];
}

/** A write no trigger sees (as if the revisions' triggers were not there). */
async function unseen(statement: string, params: unknown[]): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query(statement, params);
  });
}

beforeAll(async () => {
  db = await freshDatabase();
  sql = db.database.sql;
  other = await openDatabase({ url: db.url, dataDir: '', embeddedPort: 0, poolMax: 2 });
  organizationId = (await db.useCases.admin.createOrganization({ name: 'Acme', slug: 'acme' })).id;
  userId = (await db.useCases.admin.createUser({ name: 'Ada', email: 'ada@acme.test' })).id;
  await db.useCases.admin.addMember({ organization: 'acme', email: 'ada@acme.test', role: 'member' });
  pipelineId = newId();
  await sql.query(
    `insert into pipelines (id, organization_id, slug, name, repository, steps, provider, webhook_token, created_at)
     values ($1, $2, 'web', 'Web', 'git@example.com:a/b.git', '[]', '{}', $3, now())`,
    [pipelineId, organizationId, pipelineId.replaceAll('-', '')],
  );
  await sql.query(
    `insert into builds (id, organization_id, pipeline_id, number, state, commit, branch, env, meta_data, source,
       creator_id, created_at, scheduled_at)
     values ($1, $2, $3, 1, 'scheduled', 'HEAD', 'main', '{}', '{}', 'api', $4, now(), now())`,
    [newId(), organizationId, pipelineId, userId],
  );
  remembering = READS.map(() => accessTokenRepository(sql, pipelineMemory(), accessMemory()));
});
afterAll(async () => {
  await other?.close();
  await db?.close();
});

// A token of its own for each test, remembered before the test changes anything.
beforeEach(async () => {
  const { secret, token } = await db.useCases.admin.createAccessToken({
    email: 'ada@acme.test',
    scopes: 'all',
  });
  tokenHash = hashAccessTokenSecret(secret);
  tokenId = token.id;
  await remember();
});

describe('a remembered access', () => {
  it('is what this process answers while nothing changes it, however long: a write no trigger sees stays unseen', async () => {
    await unseen('update access_tokens set description = $2 where id = $1', [tokenId, 'unseen']);
    const answer = await remembering[0]!.findByHash(tokenHash, READS[0]!);
    expect(answer?.token.id).toBe(tokenId);
    expect(answer?.token.description).toBeNull();
    expect((await fresh().findByHash(tokenHash, READS[0]!))?.token.description).toBe('unseen');
  });

  it("reads afresh what it does not hold: the pipeline's build counter, its content revision, the build", async () => {
    await unseen('update access_tokens set description = $2 where id = $1', [tokenId, 'unseen']);
    const revision = (await remembering[1]!.findByHash(tokenHash, READS[1]!))?.pipelineAccess?.facts
      ?.contentRevision;
    await sql.query('update pipelines set next_build_number = next_build_number + 7 where id = $1', [
      pipelineId,
    ]);
    await sql.query("update builds set state = 'running' where pipeline_id = $1 and number = 1", [
      pipelineId,
    ]);
    const [access, withRevision, withBuild] = await Promise.all(
      READS.map((readAhead, index) => remembering[index]!.findByHash(tokenHash, readAhead)),
    );
    // Each still remembered (the unseen description), with what it does not hold as it is now.
    for (const answer of [access, withRevision, withBuild]) {
      expect(answer?.token.id).toBe(tokenId);
      expect(answer?.token.description).toBeNull();
    }
    const [counter] = await sql.query<{ next_build_number: number }>(
      'select next_build_number from pipelines where id = $1',
      [pipelineId],
    );
    expect(access?.pipelineAccess?.facts?.pipeline?.nextBuildNumber).toBe(counter?.next_build_number);
    expect(withRevision?.pipelineAccess?.facts?.contentRevision).not.toBe(revision);
    expect(withRevision?.pipelineAccess?.facts?.contentRevision).toMatch(/^\d+\.\d+\.\d+$/);
    expect(withBuild?.pipelineAccess?.build?.build.state).toBe('running');
    const missing = await remembering[2]!.findByHash(tokenHash, {
      organizationSlug: 'acme',
      pipelineSlug: 'web',
      buildNumber: 2,
    });
    expect(missing?.token.description).toBeNull();
    expect(missing?.pipelineAccess?.build).toBeNull();
  });

  it('is not remembered while the catalog has no revision (its row gone): no change could be seen', async () => {
    await sql.query('delete from catalog_revision');
    try {
      for (const [index, readAhead] of READS.entries()) {
        expect((await remembering[index]!.findByHash(tokenHash, readAhead))?.token.id).toBe(tokenId);
      }
      await unseen('update access_tokens set description = $2 where id = $1', [tokenId, 'unseen']);
      for (const [index, readAhead] of READS.entries()) {
        expect((await remembering[index]!.findByHash(tokenHash, readAhead))?.token.description).toBe(
          'unseen',
        );
      }
    } finally {
      await sql.query("insert into catalog_revision (id, revision) values (1, nextval('content_revisions'))");
    }
  });
});

describe("the catalog revision's row, the last lock a transaction that moves it takes", () => {
  it('lets a team be deleted while a new member joins it, without a deadlock', async () => {
    const teamId = newId();
    await sql.query(
      `insert into teams (id, organization_id, slug, name, created_at) values ($1, $2, 'doomed', 'Doomed', now())`,
      [teamId, organizationId],
    );
    const joiner = await db.useCases.admin.createUser({ name: 'Joe', email: 'joe@acme.test' });
    let joining: Promise<unknown> | undefined;
    // As the team's delete runs it (team.repository.ts `deleteUnlessLastTeam`): the team's row, then the
    // delete, whose cascades move the catalog revision.
    await sql.transaction(async (tx) => {
      await tx.query('select id from teams where id = $1 for update', [teamId]);
      joining = other.repos.organizations
        .putMember({
          id: newId(),
          organizationId,
          userId: joiner.id,
          role: 'member',
          at: new Date(),
          teamsIfNew: [{ id: newId(), teamId, role: 'member' }],
        })
        .then(
          () => 'joined',
          (error: { code?: string }) => error.code,
        );
      await someoneWaitsForALock(sql);
      await tx.query('delete from teams where id = $1', [teamId]);
    });
    // The team went first: the membership's statement finds it gone (a foreign key violation), never a deadlock.
    expect(await joining).toBe('23503');
  });
});

describe('a pipeline removed', () => {
  it("leaves the catalog revision alone (its own row's going is seen), while removing a team's association moves it", async () => {
    const catalogRevision = async () =>
      (await sql.query<{ revision: string }>('select revision from catalog_revision'))[0]?.revision;
    const teamId = newId();
    await sql.query(
      `insert into teams (id, organization_id, slug, name, created_at) values ($1, $2, 'ops', 'Ops', now())`,
      [teamId, organizationId],
    );
    const doomed = newId();
    await sql.query(
      `insert into pipelines (id, organization_id, slug, name, repository, steps, provider, webhook_token, created_at)
       values ($1, $2, 'doomed', 'Doomed', 'git@example.com:a/b.git', '[]', '{}', $3, now())`,
      [doomed, organizationId, doomed.replaceAll('-', '')],
    );
    const associate = (pipeline: string) =>
      sql.query(
        `insert into team_pipelines (id, team_id, pipeline_id, access_level, created_at)
         values ($1, $2, $3, 'read_only', now())`,
        [newId(), teamId, pipeline],
      );
    await associate(doomed);
    await associate(pipelineId);
    const before = await catalogRevision();
    await sql.query('delete from pipelines where id = $1', [doomed]);
    expect(await catalogRevision()).toBe(before);
    await sql.query('delete from team_pipelines where team_id = $1', [teamId]);
    expect(await catalogRevision()).not.toBe(before);
  });
});

describe('a change to what decides access shows at once, made by another process or by plain SQL', () => {
  it('the token revoked by another process', async () => {
    expect(await other.repos.accessTokens.revoke(tokenId, new Date())).toBe(true);
    expect((await read())?.token.revokedAt).toBeInstanceOf(Date);
  });

  it("the token's scopes and organizations changed", async () => {
    await sql.query(
      "update access_tokens set scopes = '{read_builds}', organization_ids = $2 where id = $1",
      [tokenId, [newId()]],
    );
    const answer = await read();
    expect(answer?.token.scopes).toEqual(['read_builds']);
    expect(answer?.token.organizationIds).toHaveLength(1);
  });

  it('the token deleted', async () => {
    await sql.query('delete from access_tokens where id = $1', [tokenId]);
    expect(await read()).toBeNull();
  });

  it('the user changed', async () => {
    await sql.query("update users set name = 'Ada L.' where id = $1", [userId]);
    expect((await read())?.user.name).toBe('Ada L.');
  });

  it('the membership: role changed, then removed, then back', async () => {
    await sql.query("update organization_members set role = 'admin' where user_id = $1", [userId]);
    expect((await read())?.pipelineAccess?.facts?.role).toBe('admin');
    await sql.query('delete from organization_members where user_id = $1', [userId]);
    expect((await read())?.pipelineAccess?.facts).toBeNull();
    await db.useCases.admin.addMember({ organization: 'acme', email: 'ada@acme.test', role: 'member' });
    expect((await read())?.pipelineAccess?.facts?.role).toBe('member');
  });

  it("the teams: the pipeline's, the user's in them, their access levels, a team removed", async () => {
    const teamId = newId();
    await sql.query(
      `insert into teams (id, organization_id, slug, name, created_at) values ($1, $2, 'core', 'Core', now())`,
      [teamId, organizationId],
    );
    await sql.query(
      `insert into team_pipelines (id, team_id, pipeline_id, access_level, created_at)
       values ($1, $2, $3, 'read_only', now())`,
      [newId(), teamId, pipelineId],
    );
    let facts = (await read())?.pipelineAccess?.facts;
    expect(facts?.pipelineHasTeams).toBe(true);
    expect(facts?.teamAccessLevels).toEqual([]);
    await sql.query(
      `insert into team_members (id, team_id, user_id, role, created_at) values ($1, $2, $3, 'member', now())`,
      [newId(), teamId, userId],
    );
    expect((await read())?.pipelineAccess?.facts?.teamAccessLevels).toEqual(['read_only']);
    await sql.query("update team_pipelines set access_level = 'build_and_read' where team_id = $1", [teamId]);
    expect((await read())?.pipelineAccess?.facts?.teamAccessLevels).toEqual(['build_and_read']);
    await sql.query('delete from team_members where team_id = $1', [teamId]);
    expect((await read())?.pipelineAccess?.facts?.teamAccessLevels).toEqual([]);
    await sql.query('delete from team_pipelines where team_id = $1', [teamId]);
    expect((await read())?.pipelineAccess?.facts?.pipelineHasTeams).toBe(false);
    // A team's delete takes its members and pipelines with it.
    await sql.query(
      `insert into team_pipelines (id, team_id, pipeline_id, access_level, created_at)
       values ($1, $2, $3, 'read_only', now())`,
      [newId(), teamId, pipelineId],
    );
    await sql.query(
      `insert into team_members (id, team_id, user_id, role, created_at) values ($1, $2, $3, 'member', now())`,
      [newId(), teamId, userId],
    );
    expect((await read())?.pipelineAccess?.facts?.teamAccessLevels).toEqual(['read_only']);
    await sql.query('delete from teams where id = $1', [teamId]);
    facts = (await read())?.pipelineAccess?.facts;
    expect(facts?.pipelineHasTeams).toBe(false);
    expect(facts?.teamAccessLevels).toEqual([]);
  });

  it('the organization renamed, and back', async () => {
    await sql.query("update organizations set slug = 'acme-corp' where id = $1", [organizationId]);
    expect((await read())?.pipelineAccess?.facts).toBeNull();
    await sql.query("update organizations set slug = 'acme' where id = $1", [organizationId]);
    expect((await read())?.pipelineAccess?.facts?.organization.slug).toBe('acme');
  });

  it('the pipeline changed, renamed and back', async () => {
    await sql.query("update pipelines set visibility = 'public' where id = $1", [pipelineId]);
    expect((await read())?.pipelineAccess?.facts?.pipeline?.visibility).toBe('public');
    await sql.query("update pipelines set slug = 'web-2' where id = $1", [pipelineId]);
    expect((await read())?.pipelineAccess?.facts?.pipeline).toBeNull();
    await sql.query("update pipelines set slug = 'web' where id = $1", [pipelineId]);
    expect((await read())?.pipelineAccess?.facts?.pipeline?.slug).toBe('web');
  });

  // Last: what it removes, the others need.
  it('the pipeline removed, then the user with their tokens', async () => {
    await sql.query('delete from pipelines where id = $1', [pipelineId]);
    const answer = await read();
    expect(answer?.token.id).toBe(tokenId);
    expect(answer?.pipelineAccess?.facts?.pipeline).toBeNull();
    await sql.query('delete from users where id = $1', [userId]);
    expect(await read()).toBeNull();
  });
});
