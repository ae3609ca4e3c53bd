import { createUseCases, newId } from '@ci/application';
import { openDatabase } from '@ci/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli';
import { freshDatabaseUrl } from '../../../test/support/database';

let databaseUrl: string;

async function cli(...args: string[]) {
  const { code, stdout, stderr } = await runCli([...args, '--json'], {
    ...process.env,
    DATABASE_URL: databaseUrl,
  });
  if (code !== 0) throw new Error(`the CLI exited ${code}: ${stderr}`);
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1); // exactly one JSON object on stdout
  return JSON.parse(lines[0] ?? '');
}

let database: Awaited<ReturnType<typeof openDatabase>>;
beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  database = await openDatabase({ url: databaseUrl, dataDir: '', embeddedPort: 0, poolMax: 2 });
});
afterAll(async () => {
  await database?.close();
});

const authenticateAt = (now: Date) =>
  createUseCases({ repos: database.repos, clock: { now: () => now }, newId: () => newId() }).authenticate;

// Each test runs the CLI as a process several times, each opening the database: minutes on a busy machine.
describe('the CLI', { timeout: 240_000 }, () => {
  it('creates an organization, a member and a token that authenticates until it is revoked', async () => {
    const org = await cli('org', 'create', '--name', 'Widgets Inc');
    expect(org).toMatchObject({ slug: 'widgets-inc', name: 'Widgets Inc' });
    expect(Buffer.from(org.graphql_id, 'base64').toString()).toBe(`Organization---${org.id}`);
    await cli('user', 'create', '--name', 'Wanda', '--email', 'wanda@widgets.test');
    await cli('member', 'add', '--org', 'widgets-inc', '--email', 'wanda@widgets.test', '--role', 'admin');
    const token = await cli(
      'token',
      'create',
      '--email',
      'wanda@widgets.test',
      '--scopes',
      'read_builds,write_builds',
    );
    expect(token.token).toMatch(/^bkua_[0-9a-f]{40}$/);

    const actor = await authenticateAt(new Date())(`Bearer ${token.token}`);
    expect(actor.user.email).toBe('wanda@widgets.test');
    expect(actor.scopes).toEqual(['read_builds', 'write_builds']);

    // Only the hash is stored.
    const stored = await database.sql.query('select token_hash from access_tokens where id = $1', [token.id]);
    expect(JSON.stringify(stored)).not.toContain(token.token);

    expect(await cli('token', 'revoke', '--id', token.id)).toEqual({ id: token.id, revoked: true });
    await expect(authenticateAt(new Date())(`Bearer ${token.token}`)).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });

  it('makes tokens that stop working when they expire', async () => {
    await cli('user', 'create', '--name', 'Eve', '--email', 'eve@widgets.test');
    const token = await cli(
      'token',
      'create',
      '--email',
      'eve@widgets.test',
      '--scopes',
      'all',
      '--expires-in',
      '1h',
    );
    const authenticate = authenticateAt(new Date(Date.now() + 30 * 60_000));
    expect((await authenticate(`Bearer ${token.token}`)).user.email).toBe('eve@widgets.test');
    await expect(
      authenticateAt(new Date(Date.now() + 61 * 60_000))(`Bearer ${token.token}`),
    ).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });

  it('refuses unknown tokens and malformed headers', async () => {
    const authenticate = authenticateAt(new Date());
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Basic abc',
      `Bearer bkua_${'0'.repeat(40)}`,
      'Bearer x y',
    ]) {
      await expect(authenticate(header)).rejects.toMatchObject({ kind: 'unauthenticated' });
    }
  });

  it('seeds a demo organization whose token reads its builds', async () => {
    const demo = await cli('seed');
    expect(demo).toMatchObject({ organization: 'acme', pipelines: ['website', 'api', 'mobile-app'] });
    const actor = await authenticateAt(new Date())(`Bearer ${demo.token}`);
    const useCases = createUseCases({
      repos: database.repos,
      clock: { now: () => new Date() },
      newId: () => newId(),
    });
    const page = await useCases.listBuilds(
      actor,
      { kind: 'organization', organization: 'acme' },
      {},
      { page: 1, perPage: 30 },
    );
    expect(page.builds).toHaveLength(demo.builds);
    // A cluster with its default queue, to register agents into.
    const cluster = await useCases.getCluster(actor, { organization: 'acme', cluster: demo.cluster });
    expect(cluster.cluster).toMatchObject({ name: 'Default cluster', defaultQueueId: expect.any(String) });
    const queues = await useCases.listClusterQueues(
      actor,
      { organization: 'acme', cluster: demo.cluster },
      { page: 1, perPage: 30 },
    );
    expect(queues.items.map((item) => item.queue.key)).toEqual(['default']);
    expect(queues.items[0]?.queue.id).toBe(cluster.cluster.defaultQueueId);
  });

  it('makes an agent registration token, stored only as its hash, that registers agents', async () => {
    await cli('org', 'create', '--name', 'Agents Inc');
    const created = await cli('agent-token', 'create', '--org', 'agents-inc', '--description', 'fleet');
    expect(created).toMatchObject({ id: expect.any(String), description: 'fleet' });
    expect(created.token).toMatch(/^bkrt_[0-9a-f]{48}$/);
    const rows = await database.sql.query<{ token_hash: string }>(
      'select token_hash from agent_registration_tokens where id = $1',
      [created.id],
    );
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(created.token);
    const useCases = createUseCases({
      repos: database.repos,
      clock: { now: () => new Date() },
      newId: () => newId(),
    });
    const registered = await useCases.agents.register(`Token ${created.token}`, {
      tags: ['queue=default'],
      userAgent: null,
      ipAddress: null,
    });
    expect(registered.accessToken).toMatch(/^bkat_/);
    await expect(
      useCases.agents.register('Token bkrt_wrong', { tags: [], userAgent: null, ipAddress: null }),
    ).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
