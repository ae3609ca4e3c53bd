import { createHmac } from 'node:crypto';
import type { Sql } from '@ci/db';
import { NOTIFICATION_EVENTS } from '@ci/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundWork } from '../../apps/server/src/background/background-work';
import { agentProtocol } from '../support/agent-protocol';
import { startTestBackgroundWork } from '../support/background-work';
import { waitFor } from '../support/wait-for';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { startWorld, type World } from '../support/world';

let world: World;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let background: BackgroundWork;

const errors: unknown[] = [];
/** Deliveries that time out and are tried again soon, so that failures show within a test's time. */
const start = (env: Record<string, string> = {}) =>
  startTestBackgroundWork(world, {
    env: { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_RETRY_BASE_MS: '50', ...env },
    logError: (details) => errors.push(details),
  });

beforeAll(async () => {
  world = await startWorld();
  receiver = await startWebhookReceiver();
  background = await start();
});
afterAll(async () => {
  await background?.stop();
  await receiver?.close();
  await world?.close();
});

const services = '/v2/organizations/acme/services';
let pipelines = 0;
/** A pipeline of its own over REST (its jobs run by no agent of the other tests); answers its slug. */
async function createPipeline(configuration: string): Promise<string> {
  const response = await world.call('POST', '/v2/organizations/acme/pipelines', {
    body: { name: `events ${++pipelines}`, repository: 'git@example.com:acme/events.git', configuration },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.slug;
}
const made: string[] = [];
async function createService(body: Record<string, unknown>) {
  const response = await world.call('POST', services, { body: { url: receiver.url, ...body } });
  expect(response.status).toBe(201);
  made.push(response.body.id);
  return response.body;
}
afterEach(async () => {
  // Each test's services go, so the next test's receiver hears only its own.
  for (const id of made.splice(0)) await world.call('DELETE', `${services}/${id}`);
  receiver.answerWith((_request, response) => response.end('ok'));
  receiver.received.length = 0;
});

describe('notification services over REST', () => {
  it('creates a service for an admin and shows its token only in the answer to the create', async () => {
    const created = await createService({ description: 'CI feed', events: ['build.finished', 'ping'] });
    expect(created).toMatchObject({
      provider: 'webhook',
      description: 'CI feed',
      enabled: true,
      settings: {
        url: receiver.url,
        events: ['build.finished', 'ping'],
        pipeline: null,
        branch_filter: null,
        token_mode: 'token',
      },
      url: `https://api.ci.test/v2/organizations/acme/services/${created.id}`,
    });
    expect(created.token).toMatch(/^[0-9a-f]{48}$/);
    const got = await world.call('GET', `${services}/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.token).toBeUndefined();
    const listed = await world.call('GET', services);
    expect(listed.body.map((service: { id: string }) => service.id)).toContain(created.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.token);
  });

  it('refuses members who are not admins (403) and organizations the token cannot use (404)', async () => {
    expect((await world.call('GET', services, { token: world.tokens.member })).status).toBe(403);
    expect(
      (await world.call('POST', services, { token: world.tokens.member, body: { url: receiver.url } }))
        .status,
    ).toBe(403);
    expect((await world.call('GET', services, { token: world.tokens.outsider })).status).toBe(404);
  });

  it('answers 422 naming the wrong fields', async () => {
    const response = await world.call('POST', services, {
      body: { url: 'ftp://example.com/', events: ['build.exploded'] },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(['url', 'events']);
    const unknownPipeline = await world.call('POST', services, {
      body: { url: receiver.url, pipeline: 'nope' },
    });
    expect(unknownPipeline.status).toBe(422);
  });

  it('takes every event the public service offers, package.created too (never sent: no packages here)', async () => {
    const events = [...NOTIFICATION_EVENTS];
    expect(events).toContain('package.created');
    const created = await createService({ events });
    expect(created.settings.events).toEqual(events);
  });

  it('changes and deletes a service', async () => {
    const created = await createService({});
    const changed = await world.call('PATCH', `${services}/${created.id}`, {
      body: { enabled: false, pipeline: 'web', branch_filter: 'main' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      enabled: false,
      settings: { pipeline: 'web', branch_filter: 'main' },
    });
    expect((await world.call('DELETE', `${services}/${created.id}`)).status).toBe(204);
    expect((await world.call('GET', `${services}/${created.id}`)).status).toBe(404);
  });
});

describe('deliveries', () => {
  it('sends a ping with the token, the event and a delivery id, and records it', async () => {
    const created = await createService({ events: ['ping'] });
    const pinged = await world.call('POST', `${services}/${created.id}/ping`);
    expect(pinged.status).toBe(201);
    const [ping] = await receiver.arrived('ping');
    expect(ping?.headers['x-buildkite-token']).toBe(created.token);
    expect(ping?.headers['content-type']).toBe('application/json');
    expect(ping?.headers['x-buildkite-delivery-id']).toBe(pinged.body.id);
    expect(ping?.json).toMatchObject({
      event: 'ping',
      service: { id: created.id, provider: 'webhook', settings: { url: receiver.url } },
      organization: { slug: 'acme' },
      sender: { id: world.users.admin.id, name: 'Ada Admin' },
    });
    const deliveries = await waitFor('the recorded delivery', async () => {
      const listed = await world.call('GET', `${services}/${created.id}/deliveries`);
      return listed.body[0]?.state === 'succeeded' && listed.body;
    });
    expect(deliveries[0]).toMatchObject({ event: 'ping', attempts: 1, response_status: 200, error: null });
    expect(deliveries[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('reports builds and jobs in the shapes of the examples, as they change', async () => {
    await createService({ events: ['build.scheduled', 'build.finished', 'job.scheduled', 'job.finished'] });
    const build = await world.createBuild('web');
    const [scheduled] = await receiver.arrived('build.scheduled');
    expect(Object.keys(scheduled?.json ?? {})).toEqual(['event', 'build', 'pipeline', 'sender']);
    expect(scheduled?.json.build).toMatchObject({ id: build.id, number: build.number, state: 'scheduled' });
    expect(scheduled?.json.build.jobs).toBeUndefined();
    expect(scheduled?.json.pipeline).toMatchObject({ slug: 'web' });
    expect(scheduled?.json.sender).toEqual({ id: world.users.admin.id, name: 'Ada Admin' });
    const jobs = await receiver.arrived('job.scheduled');
    expect(Object.keys(jobs[0]?.json ?? {})).toEqual(['event', 'job', 'build', 'pipeline', 'sender']);
    expect(jobs[0]?.json.job).toMatchObject({ id: build.jobs[0].id, type: 'script' });

    await world.call('PUT', `/v2/organizations/acme/pipelines/web/builds/${build.number}/cancel`);
    const [finished] = await receiver.arrived('build.finished');
    expect(finished?.json.build).toMatchObject({ id: build.id, state: 'canceled' });
    expect(receiver.of('build.running')).toEqual([]);
  });

  it('signs the body when the service asks for signatures', async () => {
    const created = await createService({
      events: ['ping'],
      token_mode: 'signature',
      token: 's3cret-signing-key',
    });
    expect(created.token).toBe('s3cret-signing-key');
    await world.call('POST', `${services}/${created.id}/ping`);
    const [ping] = await receiver.arrived('ping');
    expect(ping?.headers['x-buildkite-token']).toBeUndefined();
    const match = /^timestamp=(\d+),signature=([0-9a-f]{64})$/.exec(
      String(ping?.headers['x-buildkite-signature']),
    );
    expect(match).not.toBeNull();
    const [, timestamp, signature] = match as RegExpExecArray;
    const expected = createHmac('sha256', 's3cret-signing-key')
      .update(`${timestamp}.${ping?.body}`)
      .digest('hex');
    expect(signature).toBe(expected);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('sends only the events of its pipeline and branches', async () => {
    await createService({ events: ['build.scheduled'], pipeline: 'api', branch_filter: 'release/*' });
    await world.createBuild('web', { branch: 'release/1' });
    await world.createBuild('api', { branch: 'main' });
    const wanted = await world.createBuild('api', { branch: 'release/2' });
    const [only] = await receiver.arrived('build.scheduled');
    expect(only?.json.build.id).toBe(wanted.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.of('build.scheduled')).toHaveLength(1);
  });

  it('queues nothing for a change that rolls back, and the event of one that commits', async () => {
    await createService({ events: ['build.finished'] });
    const build = await world.createBuild('docs');
    const queued = async () =>
      Number(
        (
          await world.server.database.sql.query<{ n: string }>(
            `select count(*) as n from graphile_worker.jobs where task_identifier = 'notification_fan_out'`,
          )
        )[0]?.n,
      );
    await waitFor('the create fanned out', async () => (await queued()) === 0);
    const cancel = `update builds set state = 'canceled', finished_at = now() where id = $1`;
    await world.server.database.sql
      .transaction(async (tx) => {
        await tx.query(cancel, [build.id]);
        throw new Error('rolled back');
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.of('build.finished')).toEqual([]);
    await world.server.database.sql.transaction(async (tx) => {
      await tx.query(cancel, [build.id]);
    });
    const [finished] = await receiver.arrived('build.finished');
    expect(finished?.json.build).toMatchObject({ id: build.id, state: 'canceled' });
  });

  it('queues a change only where a service wants events of its kind', async () => {
    await createService({ events: ['build.finished'] });
    const build = await world.createBuild('docs');
    const fanOuts = async (sql: Pick<Sql, 'query'>) =>
      Number(
        (
          await sql.query<{ n: string }>(
            `select count(*) as n from graphile_worker.jobs where task_identifier = 'notification_fan_out'`,
          )
        )[0]?.n,
      );
    await waitFor('the create fanned out', async () => (await fanOuts(world.server.database.sql)) === 0);
    // In one transaction, rolled back: what each change queues is counted before any worker sees it.
    await world.server.database.sql
      .transaction(async (tx) => {
        await tx.query(`update jobs set state = 'canceled', finished_at = now() where build_id = $1`, [
          build.id,
        ]);
        expect(await fanOuts(tx)).toBe(0);
        await tx.query(`update builds set state = 'canceled', finished_at = now() where id = $1`, [build.id]);
        expect(await fanOuts(tx)).toBe(1);
        throw new Error('rolled back');
      })
      .catch((error: Error) => expect(error.message).toBe('rolled back'));
  });

  it('reports an agent connecting and disconnecting', async () => {
    await createService({ events: ['agent.connected', 'agent.disconnected'] });
    const { secret } = await world.server.useCases.admin.createAgentToken({
      organization: 'acme',
      description: 'hooks',
    });
    const protocol = agentProtocol(world.server, secret);
    const agent = await protocol.register({ name: 'hooked' });
    const [connected] = await receiver.arrived('agent.connected');
    expect(Object.keys(connected?.json ?? {})).toEqual(['event', 'agent', 'sender']);
    expect(connected?.json.agent).toMatchObject({
      id: agent.uuid,
      name: 'hooked',
      connection_state: 'connected',
    });
    await world.server.fetch('/v3/disconnect', {
      method: 'POST',
      headers: { Authorization: `Token ${agent.token}` },
    });
    await waitFor('agent.disconnected', async () => receiver.of('agent.disconnected').length > 0);
  });

  it('reports an agent asked to stop, stopped, and one lost to silence', async () => {
    await createService({ events: ['agent.stopping', 'agent.stopped', 'agent.lost'] });
    const { secret } = await world.server.useCases.admin.createAgentToken({
      organization: 'acme',
      description: 'lifecycle',
    });
    const protocol = agentProtocol(world.server, secret);
    const stopped = await protocol.register({ name: 'stopped' });
    const stop = await world.call('PUT', `/v2/organizations/acme/agents/${stopped.uuid}/stop`, {
      body: { force: false },
    });
    expect(stop.status, stop.text).toBe(204);
    const [stopping] = await receiver.arrived('agent.stopping');
    expect(stopping?.json.agent).toMatchObject({ id: stopped.uuid, connection_state: 'stopping' });
    await protocol.disconnect(stopped.token);
    const [gone] = await receiver.arrived('agent.stopped');
    expect(gone?.json.agent).toMatchObject({ id: stopped.uuid, connection_state: 'stopped' });

    const silent = await protocol.register({ name: 'silent' });
    const alive = await protocol.register({ name: 'alive' });
    // Heard of last an hour ago: past any lostAfter, as a sweep finds an agent that went away.
    await world.server.database.sql.query(
      `update agents set last_seen_at = now() - interval '1 hour' where id = $1`,
      [silent.uuid],
    );
    expect(await world.server.useCases.agents.markSilentAgentsLost()).toBe(1);
    const [lost] = await receiver.arrived('agent.lost');
    expect(Object.keys(lost?.json ?? {})).toEqual(['event', 'agent', 'sender']);
    expect(lost?.json.agent).toMatchObject({ id: silent.uuid, name: 'silent', connection_state: 'lost' });
    const shown = await world.call('GET', `/v2/organizations/acme/agents/${silent.uuid}`);
    expect(shown.body.connection_state).toBe('lost');
    // A lost agent that comes back is told to go; the one still heard of is not lost.
    expect((await protocol.v3('GET', '/ping', silent.token)).action).toBe('disconnect');
    expect((await protocol.v3('GET', '/ping', alive.token)).action).toBe('idle');
    expect(receiver.of('agent.lost')).toHaveLength(1);
  });

  it('reports a block step activated when it is unblocked', async () => {
    await createService({ events: ['job.activated'] });
    const pipeline = await createPipeline(
      'steps:\n  - block: Deploy\n  - command: deploy\n    agents: {queue: none}\n',
    );
    const build = await world.createBuild(pipeline);
    const block = build.jobs.find((job: { type: string }) => job.type === 'manual');
    const unblock = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${build.number}/jobs/${block.id}/unblock`,
    );
    expect(unblock.status, unblock.text).toBe(200);
    const [activated] = await receiver.arrived('job.activated');
    expect(Object.keys(activated?.json ?? {})).toEqual(['event', 'job', 'build', 'pipeline', 'sender']);
    expect(activated?.json.job).toMatchObject({ id: block.id, type: 'manual', state: 'unblocked' });
    expect(activated?.json.build).toMatchObject({ id: build.id });
  });

  it('reports a build failing while a job still runs, then finished', async () => {
    await createService({ events: ['build.failing', 'build.finished'] });
    const queue = 'failing-events';
    const command = `  - command: check\n    agents: {queue: ${queue}}\n`;
    const pipeline = await createPipeline(`steps:\n${command}${command}`);
    const build = await world.createBuild(pipeline);
    const { secret } = await world.server.useCases.admin.createAgentToken({
      organization: 'acme',
      description: 'failing',
    });
    const protocol = agentProtocol(world.server, secret);
    const [first, second] = [
      await protocol.register({ name: 'first', tags: [`queue=${queue}`] }),
      await protocol.register({ name: 'second', tags: [`queue=${queue}`] }),
    ];
    const firstJob = await protocol.start(first.token);
    const secondJob = await protocol.start(second.token);
    await protocol.finish(first.token, firstJob, { exitStatus: 1 });
    const [failing] = await receiver.arrived('build.failing');
    expect(failing?.json.build).toMatchObject({ id: build.id, state: 'failing' });
    expect(receiver.of('build.finished')).toEqual([]);
    await protocol.finish(second.token, secondJob, { exitStatus: 0 });
    const [finished] = await receiver.arrived('build.finished');
    expect(finished?.json.build).toMatchObject({ id: build.id, state: 'failed' });
    for (const agent of [first, second]) await protocol.disconnect(agent.token);
  });

  it('reports a queued build skipped by a newer webhook build of its branch', async () => {
    await createService({ events: ['build.skipped'] });
    const pipeline = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'skipping events',
        repository: 'https://git.example.com/acme/skipping.git',
        configuration: 'steps:\n  - command: make\n    agents: {queue: none}\n',
        skip_queued_branch_builds: true,
      },
    });
    expect(pipeline.status, pipeline.text).toBe(201);
    const path = new URL(pipeline.body.provider.webhook_url).pathname;
    const deliver = () =>
      world.call('POST', path, {
        token: null,
        rawBody: JSON.stringify({ branch: 'main', commit: 'f'.repeat(40), message: 'pushed' }),
        headers: { 'Content-Type': 'application/json' },
      });
    const queued = await deliver();
    expect(queued.status, queued.text).toBe(201);
    expect((await deliver()).status).toBe(201);
    const [skipped] = await receiver.arrived('build.skipped');
    expect(skipped?.json.build).toMatchObject({ id: queued.body.id, state: 'skipped', source: 'webhook' });
  });

  it('tries a failing receiver again with backoff, at most the set number of times', async () => {
    receiver.answerWith((_request, response) => {
      response.statusCode = 503;
      response.end('down');
    });
    const created = await createService({ events: ['ping'] });
    await world.call('POST', `${services}/${created.id}/ping`);
    const deliveries = await waitFor('the last attempt', async () => {
      const listed = await world.call('GET', `${services}/${created.id}/deliveries`);
      return listed.body[0]?.state === 'failed' && listed.body;
    });
    expect(deliveries[0]).toMatchObject({ attempts: 3, response_status: 503 });
    const attempts = receiver.of('ping');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.headers['x-buildkite-delivery-id'])).size).toBe(1);
    // 50 ms, then 100 ms: each wait at least the doubling backoff.
    expect((attempts[2]?.at ?? 0) - (attempts[1]?.at ?? 0)).toBeGreaterThanOrEqual(90);
  });

  it('does not try again after a 4xx', async () => {
    receiver.answerWith((_request, response) => {
      response.statusCode = 410;
      response.end();
    });
    const created = await createService({ events: ['ping'] });
    await world.call('POST', `${services}/${created.id}/ping`);
    const [delivery] = await waitFor('the failure', async () => {
      const listed = await world.call('GET', `${services}/${created.id}/deliveries`);
      return listed.body[0]?.state === 'failed' && listed.body;
    });
    expect(delivery).toMatchObject({ attempts: 1, response_status: 410 });
  });

  it('cuts a receiver that never answers at the timeout while other deliveries go on', async () => {
    const silent = await startWebhookReceiver();
    silent.answerWith(() => {});
    try {
      const stuck = await createService({ events: ['ping'], url: silent.url });
      const fine = await createService({ events: ['ping'] });
      await world.call('POST', `${services}/${stuck.id}/ping`);
      await world.call('POST', `${services}/${fine.id}/ping`);
      await waitFor('the other delivery', async () => receiver.of('ping').length > 0, 5_000);
      const [delivery] = await waitFor('the timeout', async () => {
        const listed = await world.call('GET', `${services}/${stuck.id}/deliveries`);
        return listed.body[0]?.attempts >= 1 && listed.body;
      });
      expect(delivery.error).toBe('timeout after 1000 ms');
      expect(delivery.response_status).toBeNull();
      expect(delivery.duration_ms).toBeGreaterThanOrEqual(1000);
      expect(delivery.duration_ms).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });

  it('takes a 10 MB answer as its status without reading it', async () => {
    receiver.answerWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 10; i++) response.write(chunk);
      response.end();
    });
    const created = await createService({ events: ['ping'] });
    await world.call('POST', `${services}/${created.id}/ping`);
    const [delivery] = await waitFor('the delivery', async () => {
      const listed = await world.call('GET', `${services}/${created.id}/deliveries`);
      return listed.body[0]?.state === 'succeeded' && listed.body;
    });
    expect(delivery).toMatchObject({ attempts: 1, response_status: 200 });
  });

  it('keeps the last 20 deliveries of a service', async () => {
    const created = await createService({ events: ['ping'] });
    for (let i = 0; i < 24; i++) await world.call('POST', `${services}/${created.id}/ping`);
    await waitFor('every ping', async () => receiver.of('ping').length === 24);
    const listed = await waitFor('the kept deliveries', async () => {
      const response = await world.call('GET', `${services}/${created.id}/deliveries`);
      return (
        response.body.every((delivery: { state: string }) => delivery.state === 'succeeded') && response.body
      );
    });
    expect(listed).toHaveLength(20);
    const [kept] = await world.server.database.sql.query<{ n: string }>(
      'select count(*) as n from notification_deliveries where service_id = $1',
      [created.id],
    );
    expect(Number(kept?.n)).toBe(20);
  });
});

describe('notification services over GraphQL', () => {
  it('finds a webhook by UUID with its last deliveries, never its token, for admins only', async () => {
    const created = await createService({ events: ['ping'], description: 'GraphQL feed' });
    await world.call('POST', `${services}/${created.id}/ping`);
    await waitFor('the delivery', async () => {
      const listed = await world.call('GET', `${services}/${created.id}/deliveries`);
      return listed.body[0]?.state === 'succeeded';
    });
    const query = `query ($uuid: ID!) { notificationService(uuid: $uuid) {
      __typename id name description
      ... on NotificationServiceWebhook { uuid url events enabled tokenMode organization { slug }
        deliveries { event state attempts responseStatus } }
    } }`;
    const asAdmin = await world.call('POST', '/graphql', {
      body: { query, variables: { uuid: created.id } },
    });
    expect(asAdmin.body).toEqual({
      data: {
        notificationService: {
          __typename: 'NotificationServiceWebhook',
          id: created.id,
          name: 'Webhook',
          description: 'GraphQL feed',
          uuid: created.id,
          url: receiver.url,
          events: ['ping'],
          enabled: true,
          tokenMode: 'token',
          organization: { slug: 'acme' },
          deliveries: [{ event: 'ping', state: 'succeeded', attempts: 1, responseStatus: 200 }],
        },
      },
    });
    expect(asAdmin.text).not.toContain(created.token);
    const asMember = await world.call('POST', '/graphql', {
      token: world.tokens.member,
      body: { query, variables: { uuid: created.id } },
    });
    expect(asMember.body.data.notificationService).toBeNull();
    expect(asMember.body.errors[0].message).toBe('Forbidden');
  });
});

describe('where webhooks may go', () => {
  it('refuses loopback receivers unless the server allows private addresses', async () => {
    const guarded = await start({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
    await background.stop();
    try {
      const created = await createService({ events: ['ping'] });
      await world.call('POST', `${services}/${created.id}/ping`);
      const [delivery] = await waitFor('the refusal', async () => {
        const listed = await world.call('GET', `${services}/${created.id}/deliveries`);
        return listed.body[0]?.state === 'failed' && listed.body;
      });
      expect(delivery).toMatchObject({ attempts: 1, error: 'address not allowed', response_status: null });
      expect(receiver.received).toEqual([]);
    } finally {
      await guarded.stop();
      background = await start();
    }
  });
});
