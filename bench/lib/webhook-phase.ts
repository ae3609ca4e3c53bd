import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

/**
 * The webhook phases of issue 30, against servers already running (any number, on one database):
 * - outbound burst: `builds` builds of `pipeline` made over REST on a branch of their own, then one signed
 *   GitHub push to that branch with the pipeline's `skip_queued_branch_builds` on, which skips them all (a
 *   batch per transaction); each build's `build.skipped` delivered to a local receiver (node:http).
 *   Measured: the push's answer, the builds' `finished_at` (from the database: first to last), each
 *   build's finish to its delivery's arrival, and the push's sending to the last arrival.
 * - outbound cancels (`cancels` builds, 0: not run): the same builds canceled over REST spread evenly over
 *   `spreadMs`, sent to the servers in turn; each `build.finished` delivered. Latency from each cancel's
 *   sending and from each build's `finished_at`.
 * - inbound: a signed GitHub push to the pipeline's webhook URL until its 201, against a REST build
 *   create of the same pipeline, one request at a time, alternating, after a warm-up.
 * The servers must allow loopback receivers (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true`).
 */
export interface WebhookPhaseOptions {
  servers: string[];
  /** the servers' database, where the builds' `finished_at` are read */
  databaseUrl: string;
  token: string;
  organization: string;
  /** a pipeline on a GitHub repository whose jobs no agent runs */
  pipeline: string;
  builds: number;
  cancels: number;
  spreadMs: number;
  inboundRequests: number;
  /** how long to wait for the last delivery before giving up */
  deliveryTimeoutMs?: number;
}

export interface Latencies {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface OutboundResult {
  builds: number;
  delivered: number;
  /** from the first build's `finished_at` to the last one's */
  finishSpanMs: number;
  /** from each build's `finished_at` to its delivery's arrival */
  fromFinish: Latencies;
  /** from the first push or cancel sent to the last delivery's arrival */
  lastDeliveryMs: number;
  errors: number;
}

export interface WebhookPhaseResult {
  burst: OutboundResult & { pushAnsweredMs: number };
  /** null when `cancels` is 0 */
  cancels: (OutboundResult & { lastAnswerMs: number; fromCancel: Latencies }) | null;
  inbound: { webhook: Latencies; restCreate: Latencies; ratioP50: number; ratioP99: number; errors: number };
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { count: sorted.length, p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(at(1)) };
}

/** Wall-clock milliseconds with a fraction: comparable with the servers' `finished_at`. */
const now = () => performance.timeOrigin + performance.now();

export async function runWebhookPhase(options: WebhookPhaseOptions): Promise<WebhookPhaseResult> {
  const { servers, token, organization, pipeline } = options;
  const pipelinePath = `/v2/organizations/${organization}/pipelines/${pipeline}`;
  const call = async (base: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const first = servers[0] as string;
  const database = new pg.Client({ connectionString: options.databaseUrl });
  await database.connect();

  // The receiver: when each build's event arrived, by event.
  const arrived = new Map<string, Map<string, number>>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = now();
      const event = String(request.headers['x-buildkite-event']);
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.build?.id;
      const ofEvent = arrived.get(event) ?? new Map<string, number>();
      arrived.set(event, ofEvent);
      if (typeof id === 'string' && !ofEvent.has(id)) ofEvent.set(id, at);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  let serviceId: string | undefined;
  const deleteService = async () => {
    if (serviceId) await call(first, 'DELETE', `/v2/organizations/${organization}/services/${serviceId}`);
    serviceId = undefined;
  };
  const addService = async (events: string[]) => {
    const service = await call(first, 'POST', `/v2/organizations/${organization}/services`, {
      url: `http://127.0.0.1:${port}/hook`,
      events,
      pipeline,
    });
    if (service.status !== 201)
      throw new Error(`service create: ${service.status} ${JSON.stringify(service.body)}`);
    serviceId = service.body.id;
  };
  const setSkipQueued = async (on: boolean) => {
    const updated = await call(first, 'PATCH', pipelinePath, { skip_queued_branch_builds: on });
    if (updated.status !== 200) throw new Error(`pipeline update: ${updated.status}`);
  };
  // Builds made before a service is added queue no notification work; 16 requests at a time.
  const makeBuilds = async (count: number, branch: string) => {
    const made: { id: string; number: number }[] = [];
    let asked = 0;
    let errors = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, worker) => {
        while (asked < count) {
          asked += 1;
          const create = () =>
            call(servers[worker % servers.length] as string, 'POST', `${pipelinePath}/builds`, {
              commit: 'HEAD',
              branch,
              message: 'webhook bench',
            });
          let created = await create();
          // A loaded machine sheds some creates (503, ADR 0014): asked again, they are not what is measured.
          for (let tries = 1; created.status === 503 && tries < 5; tries += 1) {
            await new Promise((resolve) => setTimeout(resolve, 200));
            created = await create();
          }
          if (created.status === 201) made.push({ id: created.body.id, number: created.body.number });
          else errors += 1;
        }
      }),
    );
    return { made, errors };
  };
  const waitForArrivals = async (event: string, count: number) => {
    const deadline = now() + (options.deliveryTimeoutMs ?? 60_000);
    while ((arrived.get(event)?.size ?? 0) < count && now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return arrived.get(event) ?? new Map<string, number>();
  };
  // Each build's `finished_at` (the servers' clock, this machine's) to its arrival.
  const outbound = async (ids: string[], event: string, began: number, errors: number) => {
    const got = await waitForArrivals(event, ids.length);
    const rows = (
      await database.query<{ id: string; finished: number | null }>(
        'select id, extract(epoch from finished_at) * 1000 as finished from builds where id = any($1::uuid[])',
        [ids],
      )
    ).rows;
    const finished = rows.flatMap((row) => (row.finished === null ? [] : [Number(row.finished)]));
    const mine = ids.flatMap((id) => (got.has(id) ? [got.get(id) as number] : []));
    return {
      builds: ids.length,
      delivered: mine.length,
      finishSpanMs: finished.length ? Math.round(Math.max(...finished) - Math.min(...finished)) : -1,
      fromFinish: latencies(
        rows.flatMap((row) => {
          const at = got.get(row.id);
          return at === undefined || row.finished === null ? [] : [Math.max(0, at - Number(row.finished))];
        }),
      ),
      lastDeliveryMs: mine.length ? Math.round(Math.max(...mine) - began) : -1,
      errors,
    };
  };

  try {
    // The pipeline's webhook with a secret, as GitHub signs its deliveries (the burst's and the inbound's).
    const secret = randomUUID();
    const hook = await call(first, 'POST', `${pipelinePath}/webhook`, { secret });
    if (hook.status !== 200) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hook.body)}`);
    const hookPath = new URL(hook.body.provider.webhook_url).pathname;
    const push = async (branch: string) => {
      const body = JSON.stringify({
        ref: `refs/heads/${branch}`,
        before: '0'.repeat(40),
        after: 'c0ffee'.padEnd(40, '0'),
        deleted: false,
        head_commit: {
          id: 'c0ffee'.padEnd(40, '0'),
          message: 'pushed',
          author: { name: 'Ada', email: 'ada@example.com' },
        },
        repository: { full_name: `${organization}/${pipeline}` },
      });
      const response = await fetch(`${first}${hookPath}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-GitHub-Event': 'push',
          'X-GitHub-Delivery': randomUUID(),
          'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      });
      await response.text();
      return response.status;
    };

    // Outbound burst: the builds on a branch of their own, all skipped by one push to it.
    const branch = `burst-${randomUUID().slice(0, 8)}`;
    const queued = await makeBuilds(options.builds, branch);
    await setSkipQueued(true);
    let burst: WebhookPhaseResult['burst'];
    try {
      await addService(['build.skipped']);
      const began = now();
      const pushed = await push(branch);
      const pushAnsweredMs = Math.round(now() - began);
      const ids = queued.made.map((build) => build.id);
      burst = {
        ...(await outbound(ids, 'build.skipped', began, queued.errors + (pushed === 201 ? 0 : 1))),
        pushAnsweredMs,
      };
    } finally {
      await deleteService();
      await setSkipQueued(false);
    }

    // Outbound cancels: the builds canceled over REST on a schedule.
    let cancels: WebhookPhaseResult['cancels'] = null;
    if (options.cancels > 0) {
      const made = await makeBuilds(options.cancels, 'main');
      let errors = made.errors;
      await addService(['build.finished']);
      const sent = new Map<string, number>();
      const began = now();
      let lastAnswer = began;
      await Promise.all(
        made.made.map(async (build, index) => {
          const due = began + (index * options.spreadMs) / made.made.length;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - now())));
          sent.set(build.id, now());
          const base = servers[index % servers.length] as string;
          const canceled = await call(base, 'PUT', `${pipelinePath}/builds/${build.number}/cancel`);
          lastAnswer = Math.max(lastAnswer, now());
          if (canceled.status !== 200) errors += 1;
        }),
      );
      const ids = made.made.map((build) => build.id);
      const result = await outbound(ids, 'build.finished', began, errors);
      const got = arrived.get('build.finished') ?? new Map<string, number>();
      cancels = {
        ...result,
        lastAnswerMs: Math.round(lastAnswer - began),
        fromCancel: latencies(
          [...sent].flatMap(([id, at]) => (got.has(id) ? [Math.max(0, (got.get(id) as number) - at)] : [])),
        ),
      };
      await deleteService();
    }

    // Inbound: a push to main against a REST create.
    let inboundErrors = 0;
    const pushMain = async () => {
      const at = performance.now();
      if ((await push('main')) !== 201) inboundErrors += 1;
      return performance.now() - at;
    };
    const create = async () => {
      const at = performance.now();
      const created = await call(first, 'POST', `${pipelinePath}/builds`, { commit: 'HEAD', branch: 'main' });
      if (created.status !== 201) inboundErrors += 1;
      return performance.now() - at;
    };
    const warmUp = Math.min(20, options.inboundRequests);
    for (let i = 0; i < warmUp; i += 1) await Promise.all([pushMain(), create()]);
    const webhookTimes: number[] = [];
    const createTimes: number[] = [];
    for (let i = 0; i < options.inboundRequests; i += 1) {
      webhookTimes.push(await pushMain());
      createTimes.push(await create());
    }
    const webhook = latencies(webhookTimes);
    const restCreate = latencies(createTimes);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      burst,
      cancels,
      inbound: {
        webhook,
        restCreate,
        ratioP50: ratio(webhook.p50Ms, restCreate.p50Ms),
        ratioP99: ratio(webhook.p99Ms, restCreate.p99Ms),
        errors: inboundErrors,
      },
    };
  } finally {
    await deleteService();
    await database.end();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

/** The result as the bench scripts print it. */
export function describeWebhookPhase(result: WebhookPhaseResult): string[] {
  const { burst, cancels, inbound } = result;
  const fromFinish = (latency: Latencies) =>
    `finished → delivered p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms`;
  return [
    `outbound, one push: ${burst.builds} builds skipped (push answered in ${burst.pushAnsweredMs} ms), ` +
      `finished within ${burst.finishSpanMs} ms; ${burst.delivered} build.skipped delivered; ` +
      `${fromFinish(burst.fromFinish)}; push → last delivery ${burst.lastDeliveryMs} ms, errors ${burst.errors}`,
    ...(cancels
      ? [
          `outbound, REST cancels: ${cancels.builds} builds canceled (last answer at ${cancels.lastAnswerMs} ms), ` +
            `finished within ${cancels.finishSpanMs} ms; ${cancels.delivered} build.finished delivered; ` +
            `${fromFinish(cancels.fromFinish)}; cancel sent → delivered p50 ${cancels.fromCancel.p50Ms} ms, ` +
            `p99 ${cancels.fromCancel.p99Ms} ms; first cancel → last delivery ${cancels.lastDeliveryMs} ms, ` +
            `errors ${cancels.errors}`,
        ]
      : []),
    `inbound: GitHub push → 201 p50 ${inbound.webhook.p50Ms} ms, p99 ${inbound.webhook.p99Ms} ms; ` +
      `REST create p50 ${inbound.restCreate.p50Ms} ms, p99 ${inbound.restCreate.p99Ms} ms; ` +
      `ratio p50 ${inbound.ratioP50}, p99 ${inbound.ratioP99} (${inbound.webhook.count} each), errors ${inbound.errors}`,
  ];
}
