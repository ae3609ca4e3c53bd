import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { SendOutcome } from '@ci/application';
import type { NotificationDelivery, NotificationService } from '@ci/domain';

/**
 * POSTs a delivery to its service's URL, the public service's way (`X-Buildkite-Event`, and the token as
 * `X-Buildkite-Token` or the key of `X-Buildkite-Signature`), and says how it went. The address it connects
 * to is the one checked: a name resolving to a loopback, private or link-local address is refused at
 * connect time (no rebinding between check and use) unless the server allows them. Only the status is
 * read: the answer's body is never read, and the whole attempt is cut after `timeoutMs`.
 */

/** Where an outbound webhook may not go unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES is on (SSRF). */
export const PRIVATE_ADDRESSES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE_ADDRESSES.addSubnet(network, prefix, 'ipv4');
}
// IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are checked against the IPv4 rules by BlockList itself
// (a `::ffff:0:0/96` rule would refuse every IPv4 address).
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE_ADDRESSES.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE_ADDRESSES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const NOT_ALLOWED = 'address not allowed';

/** A DNS lookup that refuses names resolving to any private address. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
      return callback(Object.assign(new Error(NOT_ALLOWED), { code: 'EADDRNOTALLOWED' }), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
};

/** The headers of a delivery: its event, its id (the same on every attempt, for receivers to drop repeats). */
export function deliveryHeaders(
  delivery: Pick<NotificationDelivery, 'id' | 'event' | 'requestBody'>,
  service: Pick<NotificationService, 'token' | 'tokenMode'>,
  now: Date,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'ci-control-api-webhooks',
    'X-Buildkite-Event': delivery.event,
    'X-Buildkite-Delivery-Id': delivery.id,
  };
  if (service.tokenMode === 'signature') {
    const timestamp = Math.floor(now.getTime() / 1000);
    const signature = createHmac('sha256', service.token)
      .update(`${timestamp}.${delivery.requestBody}`)
      .digest('hex');
    headers['X-Buildkite-Signature'] = `timestamp=${timestamp},signature=${signature}`;
  } else {
    headers['X-Buildkite-Token'] = service.token;
  }
  return headers;
}

export interface WebhookSettings {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
}

export function webhookSender(settings: WebhookSettings) {
  return (delivery: NotificationDelivery, service: NotificationService): Promise<SendOutcome> => {
    const started = performance.now();
    const outcome = (status: number | null, error: string | null): SendOutcome => ({
      status,
      error,
      durationMs: performance.now() - started,
    });
    let url: URL;
    try {
      url = new URL(service.url);
    } catch {
      return Promise.resolve(outcome(null, 'invalid url'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.resolve(outcome(null, 'invalid url'));
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!settings.allowPrivateAddresses && isIP(literal) !== 0 && isPrivateAddress(literal)) {
      return Promise.resolve(outcome(null, NOT_ALLOWED));
    }
    const body = Buffer.from(delivery.requestBody);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const settle = (result: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        resolve(result);
      };
      const request = client.request(url, {
        method: 'POST',
        headers: { ...deliveryHeaders(delivery, service, new Date()), 'Content-Length': String(body.length) },
        agent: false,
        ...(settings.allowPrivateAddresses ? {} : { lookup: publicOnlyLookup }),
      });
      // The whole attempt, from connecting to the status line: a receiver that never answers holds nothing.
      const timer = setTimeout(
        () => settle(outcome(null, `timeout after ${settings.timeoutMs} ms`)),
        settings.timeoutMs,
      );
      request.on('response', (response) => {
        // The status is all a delivery needs: the body (however large) is not read.
        settle(outcome(response.statusCode ?? null, null));
        response.destroy();
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        settle(outcome(null, error.message === NOT_ALLOWED ? NOT_ALLOWED : (error.code ?? error.message)));
      });
      request.end(body);
    });
  };
}
