import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundWork } from '../../apps/server/src/background/background-work';
import { startTestBackgroundWork } from '../support/background-work';
import { waitFor } from '../support/wait-for';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { startWorld, type World } from '../support/world';

/**
 * A push that supersedes many builds of its branch (the pipeline's `skip_queued_branch_builds` and
 * `cancel_running_branch_builds`) changes them a batch per transaction: each build once, each change's
 * event queued with it and delivered once, and a cancel racing the push changes no build twice.
 */

let world: World;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let background: BackgroundWork;

beforeAll(async () => {
  world = await startWorld();
  receiver = await startWebhookReceiver();
  background = await startTestBackgroundWork(world);
});
afterAll(async () => {
  await background?.stop();
  await receiver?.close();
  await world?.close();
});

let n = 0;
/** A GitHub pipeline that supersedes its branches' builds, a service hearing them finish, its webhook path. */
async function supersedingPipeline() {
  const pipeline = await world.call('POST', '/v2/organizations/acme/pipelines', {
    body: {
      name: `superseding ${++n}`,
      repository: 'git@github.com:acme/app.git',
      configuration: 'steps:\n  - command: make\n  - command: test\n',
      skip_queued_branch_builds: true,
      cancel_running_branch_builds: true,
    },
  });
  expect(pipeline.status, pipeline.text).toBe(201);
  const service = await world.call('POST', '/v2/organizations/acme/services', {
    body: { url: receiver.url, events: ['build.skipped', 'build.finished'], pipeline: pipeline.body.slug },
  });
  expect(service.status, service.text).toBe(201);
  const url = pipeline.body.provider.webhook_url as string;
  return {
    id: pipeline.body.id as string,
    slug: pipeline.body.slug as string,
    push: () =>
      world.call('POST', new URL(url).pathname, {
        token: null,
        rawBody: JSON.stringify({
          ref: 'refs/heads/main',
          after: 'c0ffee'.padEnd(40, '0'),
          head_commit: { id: 'c0ffee'.padEnd(40, '0'), message: 'pushed' },
          repository: { full_name: 'acme/app' },
        }),
        headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push' },
      }),
  };
}

async function createBuilds(slug: string, count: number): Promise<{ id: string; number: number }[]> {
  const made: { id: string; number: number }[] = [];
  for (let i = 0; i < count; i += 10) {
    const some = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, () => world.createBuild(slug)),
    );
    made.push(...some.map((build) => ({ id: build.id as string, number: build.number as number })));
  }
  return made;
}

async function statesOf(ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await world.server.database.sql.query<{ id: string; state: string }>(
    'select id, state from builds where id = any($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.state]));
}

/** Each build's finishing events the receiver heard, once nothing is left queued to send. */
async function heardOnceDrained(ids: readonly string[]): Promise<Map<string, string[]>> {
  const wanted = new Set(ids);
  const heard = () => {
    const events = new Map<string, string[]>();
    for (const webhook of receiver.received) {
      const id = webhook.json?.build?.id;
      if (!wanted.has(id)) continue;
      events.set(id, [...(events.get(id) ?? []), webhook.headers['x-buildkite-event'] as string]);
    }
    return events;
  };
  await waitFor(`${ids.length} builds heard`, async () => heard().size === ids.length);
  await waitFor('the notification queue drained', async () => {
    const [row] = await world.server.database.sql.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker.jobs where task_identifier like 'notification_%'`,
    );
    return row?.n === 0;
  });
  return heard();
}

describe('a push superseding many builds', () => {
  it('skips the queued and cancels the running, in a few statements, each build heard once', async () => {
    const pipeline = await supersedingPipeline();
    const builds = await createBuilds(pipeline.slug, 50);
    const ids = builds.map((build) => build.id);
    // No agent runs here: ten of them running, as agents would have made them.
    const running = ids.slice(0, 10);
    await world.server.database.sql.query(
      `update builds set state = 'running', started_at = now() where id = any($1::uuid[])`,
      [running],
    );

    const { result: pushed, statements } = await world.countStatements(() => pipeline.push());
    expect(pushed.status, pushed.text).toBe(201);
    // A batch, not a transaction of several statements for each of the 50 builds.
    expect(statements).toBeLessThan(30);

    const states = await statesOf(ids);
    for (const id of ids) expect(states.get(id)).toBe(running.includes(id) ? 'canceled' : 'skipped');
    const jobs = await world.server.database.sql.query<{ state: string; n: number }>(
      'select state, count(*)::int as n from jobs where build_id = any($1::uuid[]) group by state',
      [ids],
    );
    expect(jobs).toEqual([{ state: 'canceled', n: 100 }]);

    const heard = await heardOnceDrained(ids);
    for (const id of ids) {
      expect(heard.get(id)).toEqual([running.includes(id) ? 'build.finished' : 'build.skipped']);
    }
  });

  it('changes no build twice when cancels race the push', async () => {
    const pipeline = await supersedingPipeline();
    const builds = await createBuilds(pipeline.slug, 20);
    const ids = builds.map((build) => build.id);
    const path = `/v2/organizations/acme/pipelines/${pipeline.slug}/builds`;
    const [pushed, ...cancels] = await Promise.all([
      pipeline.push(),
      ...builds.map((build) => world.call('PUT', `${path}/${build.number}/cancel`)),
    ]);
    expect(pushed?.status, pushed?.text).toBe(201);
    for (const cancel of cancels) expect([200, 422], cancel.text).toContain(cancel.status);

    const states = await statesOf(ids);
    const heard = await heardOnceDrained(ids);
    for (const id of ids) {
      const state = states.get(id);
      expect(['skipped', 'canceled']).toContain(state);
      expect(heard.get(id)).toEqual([state === 'skipped' ? 'build.skipped' : 'build.finished']);
    }
  });
});
