import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decidesAccess,
  decidesAccessAlone,
  readsPipelines,
  readsToken,
  startWorld,
  teamIds,
  type World,
} from '../support/world';

/**
 * A request that names a pipeline reads the token, then what its user may see of that pipeline (with its
 * content revision) in one statement, then what it answers: nothing is cached between requests.
 */

let world: World;
let number: number;
beforeAll(async () => {
  world = await startWorld();
  number = (await world.createBuild('web')).number;
});
afterAll(async () => {
  await world?.close();
});

const BUILDS = '/v2/organizations/acme/pipelines/web/builds';

/** The statements `work` sent, once its answer has this status. */
async function statementsOf(work: () => Promise<{ status: number }>, status: number) {
  const { result, sql } = await world.countStatements(work);
  expect(result.status).toBe(status);
  return sql;
}

describe('round trips', () => {
  it('a build costs two statements: the token, then the access with the build and its jobs', async () => {
    const token = await world.token('admin');
    const get = () => world.call('GET', `${BUILDS}/${number}`, { token });
    for (let i = 0; i < 2; i++) {
      const sent = await statementsOf(get, 200);
      expect(sent).toHaveLength(2);
      expect(readsToken(sent[0]!)).toBe(true);
      expect(decidesAccess(sent[1]!)).toBe(true);
      expect(sent[1]).toContain('jobs_json');
    }
  });

  it('answers a build read with the access as the build read alone', async () => {
    const withAccess = await world.call('GET', `${BUILDS}/${number}`);
    // With retried jobs it is the other form of the statement: the same build and answer here.
    const alone = await world.call('GET', `${BUILDS}/${number}?include_retried_jobs=true`);
    expect(JSON.stringify(withAccess.body)).toBe(JSON.stringify(alone.body));
  });

  it('answers a missing build as missing, and a number that is not one without reading a build', async () => {
    expect(await statementsOf(() => world.call('GET', `${BUILDS}/99999`), 404)).toHaveLength(2);
    expect((await world.call('GET', `${BUILDS}/99999`)).body).toEqual({ message: 'No build found' });
    expect(await statementsOf(() => world.call('GET', `${BUILDS}/1e3`), 404)).toHaveLength(2);
  });

  it("a pipeline's list costs four, and one narrow statement first that the response cache may answer", async () => {
    // The token, the narrow access with the revision (no cached answer at it), the access with the
    // pipeline, the page with the counts, the jobs; without the cache the second is not sent (response-cache).
    const sent = await statementsOf(() => world.call('GET', BUILDS), 200);
    expect(sent).toHaveLength(5);
    expect(decidesAccessAlone(sent[1]!)).toBe(true);
    expect(decidesAccess(sent[2]!) && !decidesAccessAlone(sent[2]!)).toBe(true);
    // The pipeline read with the access is the one the builds show: only its counts are read again.
    expect(sent.slice(3).filter(readsPipelines)).toEqual([]);
    expect(sent[3]).toContain('pipeline_counts');
  });

  it('a build reads its pipeline once, with the access', async () => {
    const sent = await statementsOf(() => world.call('GET', `${BUILDS}/${number}`), 200);
    expect(sent.filter(readsPipelines)).toHaveLength(1);
    expect(decidesAccess(sent[1]!)).toBe(true);
  });

  it('shows the counts read beside the page: a new scheduled build counts at once', async () => {
    const before = await world.call('GET', BUILDS);
    const scheduled = before.body[0].pipeline.scheduled_builds_count as number;
    await world.createBuild('web');
    const after = await world.call('GET', BUILDS);
    expect(after.body[0].pipeline.scheduled_builds_count).toBe(scheduled + 1);
    const one = await world.call('GET', `${BUILDS}/${after.body[0].number}`);
    expect(one.body.pipeline.scheduled_builds_count).toBe(scheduled + 1);
  });

  it('a list and a create read the access with the pipeline once, and no membership apart', async () => {
    for (const [work, status] of [
      // A query of its own: no answer of the response cache for it yet.
      [() => world.call('GET', `${BUILDS}?per_page=7`), 200],
      [() => world.call('POST', BUILDS, { body: { commit: 'HEAD', branch: 'main' } }), 201],
    ] as const) {
      const sent = await statementsOf(work, status);
      expect(sent.filter((sql) => decidesAccess(sql) && !decidesAccessAlone(sql))).toHaveLength(1);
      expect(sent.filter((sql) => sql.includes('organization_members') && !decidesAccess(sql))).toEqual([]);
    }
  });

  it('a create costs three round trips: the token, the access, the insert (which answers the counts after it)', async () => {
    const sent = await statementsOf(
      () => world.call('POST', BUILDS, { body: { commit: 'HEAD', branch: 'main' } }),
      201,
    );
    expect(sent).toHaveLength(3);
    expect(sent[2]).toContain('insert into builds');
    expect(sent[2]).toMatch(/update pipeline_counts pc set[\s\S]*returning pc\.scheduled_builds/);
  });

  it('answers a create and a rebuild as a later get reads them, key order of the JSON fields included', async () => {
    const body = {
      commit: 'abc123',
      branch: 'feature/x',
      message: 'Ünïcode ✓',
      env: { ZETA: '1', A: '2', MIDDLE_KEY: '3', B: '' },
      meta_data: { zz: 'last', a: 'first', mm: 'mid' },
      author: { name: 'Zed', email: 'zed@example.com' },
    };
    const created = await world.call('POST', BUILDS, { body });
    expect(created.status).toBe(201);
    const read = await world.call('GET', `${BUILDS}/${created.body.number}`);
    expect(JSON.stringify(created.body)).toBe(JSON.stringify(asCreateAnswers(read.body)));
    expect(Object.keys(created.body.env)).toEqual(Object.keys(read.body.env));

    const rebuilt = await world.call('PUT', `${BUILDS}/${created.body.number}/rebuild`);
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body.rebuilt_from).toEqual({
      id: created.body.id,
      number: created.body.number,
      url: created.body.url,
    });
    const rebuiltRead = await world.call('GET', `${BUILDS}/${rebuilt.body.number}`);
    const { job_state_counts: _counts, ...rebuiltAsRead } = rebuiltRead.body;
    expect(JSON.stringify(rebuilt.body)).toBe(JSON.stringify(rebuiltAsRead));
  });

  /** A get's answer in the create answer's form: no `job_state_counts` (the examples'). */
  function asCreateAnswers(build: Record<string, unknown>) {
    const { job_state_counts: _counts, ...rest } = build;
    return rest;
  }

  it('reads the token alone first, for a team pipeline too', async () => {
    const team = (await teamIds(world)).platform!;
    const pipeline = world.pipelines.web!.id;
    const rest = await statementsOf(
      () => world.call('GET', `/v2/organizations/acme/teams/${team}/pipelines/${pipeline}`),
      200,
    );
    const trpc = await statementsOf(async () => {
      await world.trpc(world.tokens.admin).teamPipelines.get.query({ organization: 'acme', team, pipeline });
      return { status: 200 };
    }, 200);
    for (const sent of [rest, trpc]) {
      expect(sent[0]).toContain('access_tokens');
      expect(sent[0]).not.toContain('organization_members');
    }
  });

  it('reads the token alone first for a path that names no pipeline', async () => {
    const sent = await statementsOf(() => world.call('GET', '/v2/organizations/acme/builds'), 200);
    expect(sent[0]).toContain('access_tokens');
    expect(sent[0]).not.toContain('organization_members');
  });
});

describe('the rules on a pipeline path', () => {
  it('shows a build only to whom the rules show it', async () => {
    await world.createBuild('secret');
    const hidden = await world.call('GET', '/v2/organizations/acme/pipelines/secret/builds/1', {
      token: world.tokens.member,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: 'No pipeline found' });
    const elsewhere = await world.call('GET', `${BUILDS}/${number}`, { token: world.tokens.outsider });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ message: 'No organization found' });
    const readOnly = await world.token('admin', { scopes: ['read_user'] });
    expect((await world.call('GET', `${BUILDS}/${number}`, { token: readOnly })).status).toBe(403);
  });

  it('hides a pipeline of no team of the member, and an organization the user is not in', async () => {
    const hidden = await world.call('GET', '/v2/organizations/acme/pipelines/secret/builds', {
      token: world.tokens.member,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: 'No pipeline found' });
    const elsewhere = await world.call('GET', BUILDS, { token: world.tokens.outsider });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ message: 'No organization found' });
  });

  it('hides an organization outside the token allow-list', async () => {
    const limited = await world.token('admin', { organizations: ['other'] });
    const response = await world.call('GET', BUILDS, { token: limited });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No organization found' });
  });

  it('refuses an expired or revoked token on a pipeline path as anywhere', async () => {
    const expired = await world.token('admin', { expiresAt: new Date(Date.now() - 1_000) });
    expect((await world.call('GET', BUILDS, { token: expired })).status).toBe(401);
    const revoked = await world.token('admin');
    expect((await world.call('DELETE', '/v2/access-token', { token: revoked })).status).toBe(204);
    expect((await world.call('GET', `${BUILDS}/${number}`, { token: revoked })).status).toBe(401);
  });

  it('answers a slug with a NUL as a slug that names nothing, without a database error', async () => {
    const response = await world.call('GET', '/v2/organizations/acme/pipelines/w%00b/builds');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No pipeline found' });
  });
});
