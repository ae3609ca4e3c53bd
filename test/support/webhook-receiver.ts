import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for';

export interface ReceivedWebhook {
  headers: IncomingMessage['headers'];
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a receiver reads
  json: any;
  at: number;
}

/**
 * A local receiver of outbound webhooks (node:http on a loopback port): it keeps every request and answers
 * as `answer` says (200 `ok` by default); `answer` may also never answer, or answer slowly.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let answer = (_request: ReceivedWebhook, response: ServerResponse) => {
    response.end('ok');
  };
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {}
      const webhook = { headers: request.headers, body, json, at: Date.now() };
      received.push(webhook);
      open.add(response);
      response.on('close', () => open.delete(response));
      answer(webhook, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** What the receiver answers from now on. */
    answerWith(next: typeof answer) {
      answer = next;
    },
    /** The requests of one event so far. */
    of: (event: string) => received.filter((webhook) => webhook.headers['x-buildkite-event'] === event),
    /** The requests of one event, once there are `count` of them. */
    arrived: (event: string, count = 1, timeoutMs = 20_000) =>
      waitFor(
        `${count} ${event}`,
        async () => {
          const matching = received.filter((webhook) => webhook.headers['x-buildkite-event'] === event);
          return matching.length >= count && matching;
        },
        timeoutMs,
      ),
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
