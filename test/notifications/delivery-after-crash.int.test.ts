import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { jsonCaller } from '../support/http';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { waitFor } from '../support/wait-for';
import { startWebhookReceiver } from '../support/webhook-receiver';

/**
 * A server killed while a delivery is in flight: graphile-worker's lock on that job outlives the process,
 * and another process frees it once the dead one's heartbeat is stale; the delivery is sent again, with
 * the same delivery id (at least once, never lost).
 */
let db: TestDatabase;
/** A JSON caller of a server process, as the in-process servers' `fetch`. */
const callerOf = (server: ServerProcess, secret: string) =>
  jsonCaller({ fetch: (path, init) => fetch(`${server.baseUrl}${path}`, init) }, () => secret);
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const servers: ServerProcess[] = [];

const env = (extra: Record<string, string>) => ({
  DATABASE_URL: db.url,
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WORKER_POLL_MS: '100',
  WORKER_HEARTBEAT_MS: '200',
  ...extra,
});

beforeAll(async () => {
  db = await freshDatabase();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => {});
  await receiver?.close();
  await db?.close();
});

describe('a server killed mid-delivery', () => {
  it('has the delivery sent again by another process', { timeout: 180_000 }, async () => {
    const admin = db.useCases.admin;
    await admin.createOrganization({ name: 'Acme', slug: 'acme' });
    const user = await admin.createUser({ name: 'Ada Admin', email: 'admin@acme.test' });
    await admin.addMember({ organization: 'acme', email: user.email, role: 'admin' });
    const { secret } = await admin.createAccessToken({ email: user.email, scopes: 'all' });

    // The first attempt is held open, so the first server dies with the delivery in flight.
    receiver.answerWith(() => {});
    const first = await startServerProcess(env({ WEBHOOK_TIMEOUT_MS: '120000' }));
    servers.push(first);
    const call = callerOf(first, secret);
    const service = await call('POST', '/v2/organizations/acme/services', {
      body: { url: receiver.url, events: ['ping'] },
    });
    expect(service.status).toBe(201);
    const ping = await call('POST', `/v2/organizations/acme/services/${service.body.id}/ping`);
    expect(ping.status).toBe(201);
    await receiver.arrived('ping', 1, 60_000);
    process.kill(-first.pid, 'SIGKILL');
    await first.stop();

    receiver.answerWith((_request, response) => response.end('ok'));
    const second = await startServerProcess(env({ WORKER_STALE_AFTER_MS: '1000' }));
    servers.push(second);
    // Server processes start slowly on a loaded machine: the waits are generous, the test is not timed.
    const attempts = await receiver.arrived('ping', 2, 60_000);
    expect(attempts.map((attempt) => attempt.headers['x-buildkite-delivery-id'])).toEqual([
      ping.body.id,
      ping.body.id,
    ]);
    expect(attempts[1]?.body).toBe(attempts[0]?.body);
    const deliveries = await waitFor(
      'the delivery recorded',
      async () => {
        const listed = await callerOf(second, secret)(
          'GET',
          `/v2/organizations/acme/services/${service.body.id}/deliveries`,
        );
        return listed.body[0]?.state === 'succeeded' && listed.body;
      },
      60_000,
    );
    expect(deliveries[0]).toMatchObject({ id: ping.body.id, attempts: 1, response_status: 200 });
  });
});
