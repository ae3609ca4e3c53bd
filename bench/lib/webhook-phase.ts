import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The webhook phases of issue 30, against servers already running (any number, on one database):
 * - outbound: `builds` builds of `pipeline` made, then finished (canceled over REST) spread evenly over
 *   `spreadMs`, the cancels sent to the servers in turn; each build's `build.finished` delivered to a
 *   local receiver (node:http). Latency: from the cancel's request to the delivery's arrival.
 * - inbound: a signed GitHub push to the pipeline's webhook URL until its 201, against a REST build
 *   create of the same pipeline, one request at a time, alternating, after a warm-up.
 * The servers must allow loopback receivers (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true`).
 */
export interface WebhookPhaseOptions {
  servers: string[];
  token: string;
  organization: string;
  /** a pipeline on a GitHub repository whose jobs no agent runs */
  pipeline: string;
  builds: number;
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

export interface WebhookPhaseResult {
  outbound: Latencies & {
    builds: number;
    delivered: number;
    /** from the first cancel sent to the last one answered */
    finishSpanMs: number;
    /** from the first cancel sent to the first and the last delivery's arrival */
    firstDeliveryMs: number;
    lastDeliveryMs: number;
    /** from each cancel's answer (its build finished, committed) to its delivery's arrival */
    fromFinish: Latencies;
    errors: number;
  };
  inbound: { webhook: Latencies; restCreate: Latencies; ratioP50: number; ratioP99: number; errors: number };
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { count: sorted.length, p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(at(1)) };
}

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

  // The receiver: when each build's `build.finished` arrived.
  const arrived = new Map<string, number>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      if (request.headers['x-buildkite-event'] === 'build.finished') {
        const id = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.build?.id;
        if (typeof id === 'string' && !arrived.has(id)) arrived.set(id, at);
      }
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
  try {
    // Outbound: the builds first (16 at a time), then their cancels on a schedule.
    let errors = 0;
    const numbers: { id: string; number: number }[] = [];
    let made = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, worker) => {
        while (made < options.builds) {
          made += 1;
          const created = await call(
            servers[worker % servers.length] as string,
            'POST',
            `${pipelinePath}/builds`,
            {
              commit: 'HEAD',
              branch: 'main',
              message: 'webhook bench',
            },
          );
          if (created.status === 201) numbers.push({ id: created.body.id, number: created.body.number });
          else errors += 1;
        }
      }),
    );
    // The service only now: the creates queued no notification work (no service was enabled).
    const service = await call(first, 'POST', `/v2/organizations/${organization}/services`, {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['build.finished'],
      pipeline,
    });
    if (service.status !== 201)
      throw new Error(`service create: ${service.status} ${JSON.stringify(service.body)}`);
    serviceId = service.body.id;

    const sent = new Map<string, number>();
    const answered = new Map<string, number>();
    const began = performance.now();
    let lastAnswer = began;
    await Promise.all(
      numbers.map(async (build, index) => {
        const due = began + (index * options.spreadMs) / numbers.length;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        sent.set(build.id, performance.now());
        const base = servers[index % servers.length] as string;
        const canceled = await call(base, 'PUT', `${pipelinePath}/builds/${build.number}/cancel`);
        answered.set(build.id, performance.now());
        lastAnswer = Math.max(lastAnswer, performance.now());
        if (canceled.status !== 200) errors += 1;
      }),
    );
    const deadline = performance.now() + (options.deliveryTimeoutMs ?? 60_000);
    while (arrived.size < numbers.length && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const toArrival = (from: Map<string, number>) =>
      latencies(
        [...from].flatMap(([id, at]) => {
          const got = arrived.get(id);
          return got === undefined ? [] : [Math.max(0, got - at)];
        }),
      );
    const outbound = toArrival(sent);
    const fromFinish = toArrival(answered);

    // The inbound requests' builds queue no notification work either.
    await deleteService();

    // Inbound: the pipeline's webhook with a secret, as GitHub signs its deliveries.
    const secret = randomUUID();
    const hook = await call(first, 'POST', `${pipelinePath}/webhook`, { secret });
    if (hook.status !== 200) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hook.body)}`);
    const hookPath = new URL(hook.body.provider.webhook_url).pathname;
    let inboundErrors = 0;
    const push = async () => {
      const body = JSON.stringify({
        ref: 'refs/heads/main',
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
      const at = performance.now();
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
      if (response.status !== 201) inboundErrors += 1;
      return performance.now() - at;
    };
    const create = async () => {
      const at = performance.now();
      const created = await call(first, 'POST', `${pipelinePath}/builds`, { commit: 'HEAD', branch: 'main' });
      if (created.status !== 201) inboundErrors += 1;
      return performance.now() - at;
    };
    const warmUp = Math.min(20, options.inboundRequests);
    for (let i = 0; i < warmUp; i += 1) await Promise.all([push(), create()]);
    const webhookTimes: number[] = [];
    const createTimes: number[] = [];
    for (let i = 0; i < options.inboundRequests; i += 1) {
      webhookTimes.push(await push());
      createTimes.push(await create());
    }
    const webhook = latencies(webhookTimes);
    const restCreate = latencies(createTimes);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      outbound: {
        ...outbound,
        builds: numbers.length,
        delivered: arrived.size,
        finishSpanMs: Math.round(lastAnswer - began),
        firstDeliveryMs: arrived.size ? Math.round(Math.min(...arrived.values()) - began) : -1,
        lastDeliveryMs: arrived.size ? Math.round(Math.max(...arrived.values()) - began) : -1,
        fromFinish,
        errors,
      },
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
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

/** The result as the bench scripts print it. */
export function describeWebhookPhase(result: WebhookPhaseResult): string[] {
  const { outbound, inbound } = result;
  return [
    `outbound: ${outbound.builds} builds finished in ${outbound.finishSpanMs} ms, ${outbound.delivered} build.finished ` +
      `delivered from ${outbound.firstDeliveryMs} ms to ${outbound.lastDeliveryMs} ms; ` +
      `cancel → delivery p50 ${outbound.p50Ms} ms, p99 ${outbound.p99Ms} ms, max ${outbound.maxMs} ms; ` +
      `finished → delivery p50 ${outbound.fromFinish.p50Ms} ms, p99 ${outbound.fromFinish.p99Ms} ms, errors ${outbound.errors}`,
    `inbound: GitHub push → 201 p50 ${inbound.webhook.p50Ms} ms, p99 ${inbound.webhook.p99Ms} ms; ` +
      `REST create p50 ${inbound.restCreate.p50Ms} ms, p99 ${inbound.restCreate.p99Ms} ms; ` +
      `ratio p50 ${inbound.ratioP50}, p99 ${inbound.ratioP99} (${inbound.webhook.count} each), errors ${inbound.errors}`,
  ];
}
