import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli';
import { startWorld, type World } from '../../../test/support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());

/** Runs the CLI against the world's server; resolves with its exit code and its one JSON line. */
async function remote(token: string | null, ...args: string[]) {
  const tokenArgs = token === null ? [] : ['--token', token];
  const result = await runCli(
    ['--remote', world.server.baseUrl, ...tokenArgs, ...args, '--json'],
    // No DATABASE_URL: remote commands never touch a database.
    // No config file either: only the flags say where to go.
    { PATH: process.env.PATH ?? '', CI_CONFIG: '/nonexistent/ci-config.json' },
  );
  const lines = result.stdout.trim().split('\n').filter(Boolean);
  return { ...result, body: lines.length === 1 ? JSON.parse(lines[0] ?? '') : null };
}

// Each test runs the CLI as a process several times: a minute or more on a busy machine.
describe('the CLI with --remote', { timeout: 240_000 }, () => {
  it('creates a pipeline from a steps file, gives a team access, and runs a build through the API', async () => {
    const steps = join(tmpdir(), `remote-steps-${process.pid}.yml`);
    writeFileSync(steps, 'steps:\n  - label: test\n    command: make test\n');
    const created = await remote(
      world.tokens.admin,
      'pipeline',
      'create',
      '--org',
      'acme',
      '--name',
      'Remote Made',
      '--repository',
      'git@example.com:acme/remote.git',
      '--steps',
      steps,
    );
    expect(created.code).toBe(0);
    expect(created.body).toMatchObject({
      slug: 'remote-made',
      name: 'Remote Made',
      steps: [{ command: 'make test' }],
    });
    expect(created.body.created_by.email).toBe(world.users.admin.email);

    const access = await remote(
      world.tokens.admin,
      'team-pipeline',
      'add',
      '--org',
      'acme',
      '--team',
      'platform',
      '--pipeline',
      'remote-made',
      '--access-level',
      'build_and_read',
    );
    expect(access.code).toBe(0);
    expect(access.body).toMatchObject({ pipeline_id: created.body.id, access_level: 'build_and_read' });

    // The member's team now has the pipeline: the member builds it, then cancels the build.
    const build = await remote(
      world.tokens.member,
      'build',
      'create',
      '--org',
      'acme',
      '--pipeline',
      'remote-made',
      '--commit',
      'c'.repeat(40),
      '--branch',
      'main',
      '--message',
      'from the CLI',
    );
    expect(build.code).toBe(0);
    expect(build.body).toMatchObject({ number: 1, message: 'from the CLI', source: 'api' });
    expect(build.body.creator.email).toBe(world.users.member.email);

    const key = ['--org', 'acme', '--pipeline', 'remote-made', '--number', '1'];
    expect((await remote(world.tokens.member, 'build', 'cancel', ...key)).body.state).toBe('canceled');
    const listed = await remote(
      world.tokens.member,
      'build',
      'list',
      '--org',
      'acme',
      '--pipeline',
      'remote-made',
    );
    expect(listed.body.builds.map((b: { number: number }) => b.number)).toEqual([1]);
  });

  it('creates a team and adds a maintainer', async () => {
    const team = await remote(world.tokens.admin, 'team', 'create', '--org', 'acme', '--name', 'Remote Team');
    expect(team.code).toBe(0);
    expect(team.body).toMatchObject({ slug: 'remote-team', privacy: 'visible' });
    const member = await remote(
      world.tokens.admin,
      'team-member',
      'add',
      '--org',
      'acme',
      '--team',
      'remote-team',
      '--user',
      world.users.bystander.id,
      '--role',
      'maintainer',
    );
    expect(member.code).toBe(0);
    expect(member.body).toMatchObject({ user_id: world.users.bystander.id, role: 'maintainer' });
  });

  it("prints the server's refusal as one line and exits 1", async () => {
    const refused = await remote(
      world.tokens.bystander,
      'pipeline',
      'archive',
      '--org',
      'acme',
      '--pipeline',
      'web',
    );
    expect(refused.code).toBe(1);
    expect(refused.body).toEqual({ error: '404 No pipeline found' });
    const unknown = await remote('bkua_not-a-token', 'pipeline', 'list', '--org', 'acme');
    expect(unknown.code).toBe(1);
    expect(unknown.body.error).toMatch(/^401 Authentication required/);
  });

  it('shows the token, lists organizations and members, and revokes the token it runs with', async () => {
    const token = await world.token('bystander', { scopes: ['read_organizations'] });
    const whoami = await remote(token, 'whoami');
    expect(whoami.body).toMatchObject({
      scopes: ['read_organizations'],
      user: { email: world.users.bystander.email },
    });
    expect(
      (await remote(token, 'org', 'list')).body.organizations.map((o: { slug: string }) => o.slug),
    ).toEqual(['acme']);
    const members = await remote(token, 'member', 'list', '--org', 'acme', '--per-page', '2');
    expect(members.body.members).toHaveLength(2);
    expect(await remote(token, 'token', 'revoke')).toMatchObject({ code: 0, body: { revoked: true } });
    const after = await remote(token, 'whoami');
    expect(after.code).toBe(1);
    expect(after.body.error).toMatch(/^401 Authentication required/);
  });

  it('refuses usage mistakes with status 2: no token, and commands that have no endpoint', async () => {
    const noToken = await remote(null, 'pipeline', 'list', '--org', 'acme');
    expect(noToken.code).toBe(2);
    expect(noToken.body).toEqual({
      error: `no token for ${world.server.baseUrl}: give --token T, set CI_API_TOKEN, or add it to the profile`,
    });
    const local = await remote(world.tokens.admin, 'org', 'create', '--name', 'Nope');
    expect(local.code).toBe(2);
    expect(local.body.error).toContain('has no API endpoint');
  });

  it('manages a notification webhook: create (token shown once), change, ping, deliveries, delete', async () => {
    const org = ['--org', 'acme'];
    const created = await remote(
      world.tokens.admin,
      'service',
      'create',
      ...org,
      '--url',
      'https://hooks.example.com/ci',
      '--events',
      'build.finished,ping',
      '--token-mode',
      'signature',
    );
    expect(created.code).toBe(0);
    expect(created.body).toMatchObject({
      provider: 'webhook',
      settings: {
        url: 'https://hooks.example.com/ci',
        events: ['build.finished', 'ping'],
        token_mode: 'signature',
      },
    });
    expect(created.body.token).toEqual(expect.any(String));
    const service = ['--service', created.body.id];
    const changed = await remote(world.tokens.admin, 'service', 'update', ...org, ...service, '--disabled');
    expect(changed.body).toMatchObject({ enabled: false });
    expect(changed.body.token).toBeUndefined();
    const listed = await remote(world.tokens.admin, 'service', 'list', ...org);
    expect(listed.body.services.map((item: { id: string }) => item.id)).toContain(created.body.id);
    const ping = await remote(world.tokens.admin, 'service', 'ping', ...org, ...service);
    expect(ping.body).toMatchObject({ event: 'ping', state: 'pending', attempts: 0 });
    const deliveries = await remote(world.tokens.admin, 'service', 'deliveries', ...org, ...service);
    expect(deliveries.body.deliveries.map((delivery: { id: string }) => delivery.id)).toEqual([ping.body.id]);
    const refused = await remote(world.tokens.member, 'service', 'list', ...org);
    expect(refused.code).toBe(1);
    const deleted = await remote(world.tokens.admin, 'service', 'delete', ...org, ...service);
    expect(deleted.body).toMatchObject({ deleted: true });
  });

  it('manages pipeline triggers and the inbound webhook, each command with its own help', async () => {
    const key = ['--org', 'acme', '--pipeline', 'web'];
    const help = await remote(null, 'trigger', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: pnpm cli trigger create [options]');
    expect(help.stdout).toMatch(/--pipeline <slug>\s+pipeline slug \(required\)/);
    expect(help.stdout).toContain('--label <text>');

    const created = await remote(
      world.tokens.admin,
      'trigger',
      'create',
      ...key,
      '--label',
      'Deploys',
      '--branch',
      'main',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.body).toMatchObject({ type: 'webhook', label: 'Deploys', enabled: true });
    expect(created.body.webhook_url).toMatch(/\/bktr_[A-Za-z0-9]{40}$/);
    const hook = new URL(created.body.webhook_url).pathname;
    const post = () => world.call('POST', hook, { token: null, body: { deploy: 'now' } });
    expect((await post()).status).toBe(201);

    const trigger = ['--trigger', created.body.id];
    const disabled = await remote(world.tokens.admin, 'trigger', 'update', ...key, ...trigger, '--disabled');
    expect(disabled.body).toMatchObject({ id: created.body.id, enabled: false });
    expect(disabled.body.webhook_url).toBeUndefined();
    expect((await post()).status).toBe(403);
    const listed = await remote(world.tokens.admin, 'trigger', 'list', ...key);
    expect(listed.body.triggers.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    const deleted = await remote(world.tokens.admin, 'trigger', 'delete', ...key, ...trigger);
    expect(deleted.body).toMatchObject({ trigger: created.body.id, deleted: true });
    expect((await post()).status).toBe(404);

    const made = await remote(world.tokens.admin, 'pipeline-webhook', 'create', ...key, '--secret', 's3cret');
    expect(made.code, made.stderr).toBe(0);
    expect(made.body).toMatchObject({
      pipeline: 'web',
      webhook_url: expect.stringContaining('/webhooks/deliver/'),
    });
    const shown = await remote(world.tokens.admin, 'pipeline-webhook', 'show', ...key);
    expect(shown.body.webhook_url).toBe(made.body.webhook_url);
    // The secret is set: an unsigned GitHub push is refused.
    const push = await world.call('POST', new URL(made.body.webhook_url).pathname, {
      token: null,
      body: { ref: 'refs/heads/main', after: 'a'.repeat(40) },
      headers: { 'X-GitHub-Event': 'push' },
    });
    expect(push.status).toBe(401);
    const dropped = await remote(world.tokens.admin, 'pipeline-webhook', 'delete', ...key);
    expect(dropped.body).toMatchObject({ pipeline: 'web', deleted: true });
    const after = await world.call('GET', '/v2/organizations/acme/pipelines/web');
    expect(after.body.provider.webhook_url).toBe('');
  });

  it('manages pipeline schedules: create, change, list, delete, and refuses a bad cronline', async () => {
    const key = ['--org', 'acme', '--pipeline', 'web'];
    const created = await remote(
      world.tokens.admin,
      'schedule',
      'create',
      ...key,
      '--label',
      'Nightly',
      '--cronline',
      '0 2 * * * Europe/London',
      '--env',
      'MODE=nightly',
      'DEPTH=full',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.body).toMatchObject({
      label: 'Nightly',
      cronline: '0 2 * * * Europe/London',
      env: { MODE: 'nightly', DEPTH: 'full' },
      enabled: true,
    });
    expect(Date.parse(created.body.next_build_at)).toBeGreaterThan(Date.now());

    const schedule = ['--schedule', created.body.id];
    const changed = await remote(world.tokens.admin, 'schedule', 'update', ...key, ...schedule, '--disabled');
    expect(changed.body).toMatchObject({ id: created.body.id, enabled: false, next_build_at: null });
    const listed = await remote(world.tokens.admin, 'schedule', 'list', ...key);
    expect(listed.body.schedules.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    const bad = await remote(
      world.tokens.admin,
      'schedule',
      'update',
      ...key,
      ...schedule,
      '--cronline',
      '61 * * * *',
    );
    expect(bad.code).toBe(1);
    expect(bad.body.error).toMatch(/^422 Validation Failed: cronline "61 \* \* \* \*"/);
    const deleted = await remote(world.tokens.admin, 'schedule', 'delete', ...key, ...schedule);
    expect(deleted.body).toMatchObject({ schedule: created.body.id, deleted: true });
    expect((await remote(world.tokens.admin, 'schedule', 'list', ...key)).body.schedules).toEqual([]);
  });
});
