import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, isPrivateAddress, webhookSender } from './webhook-sender';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('deliveryHeaders', () => {
  const delivery = { id: 'd-1', event: 'build.finished' as const, requestBody: '{"event":"build.finished"}' };
  const now = new Date('2026-11-27T10:00:00.000Z');

  it('sends the token as it is in token mode', () => {
    const headers = deliveryHeaders(delivery, { token: 'tok', tokenMode: 'token' }, now);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Buildkite-Event': 'build.finished',
      'X-Buildkite-Delivery-Id': 'd-1',
      'X-Buildkite-Token': 'tok',
    });
    expect(headers['X-Buildkite-Signature']).toBeUndefined();
  });

  it('signs "<timestamp>.<body>" with HMAC-SHA256 in signature mode, never sending the token', () => {
    const headers = deliveryHeaders(delivery, { token: 'key', tokenMode: 'signature' }, now);
    const timestamp = now.getTime() / 1000;
    const signature = createHmac('sha256', 'key')
      .update(`${timestamp}.${delivery.requestBody}`)
      .digest('hex');
    expect(headers['X-Buildkite-Signature']).toBe(`timestamp=${timestamp},signature=${signature}`);
    expect(headers['X-Buildkite-Token']).toBeUndefined();
    expect(JSON.stringify(headers)).not.toContain('"key"');
  });
});

describe('webhookSender', () => {
  const delivery = {
    id: 'd',
    serviceId: 's',
    event: 'ping' as const,
    eventId: 'e',
    requestBody: '{}',
    state: 'pending' as const,
    attempts: 0,
    responseStatus: null,
    error: null,
    durationMs: null,
    createdAt: new Date(),
    lastAttemptAt: null,
  };
  const service = (url: string) => ({
    id: 's',
    organizationId: 'o',
    description: 'x',
    url,
    events: ['ping' as const],
    pipelineId: null,
    branchFilter: null,
    token: 't',
    tokenMode: 'token' as const,
    enabled: true,
    creatorId: null,
    createdAt: new Date(),
  });
  const send = webhookSender({ allowPrivateAddresses: false, timeoutMs: 1000 });

  it.each([
    'http://127.0.0.1:9/hook',
    'http://[::1]:9/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://localhost:9/hook',
  ])('refuses %s without connecting', async (url) => {
    const outcome = await send(delivery, service(url));
    expect(outcome).toMatchObject({ status: null, error: 'address not allowed' });
  });

  it('refuses what is not http(s)', async () => {
    expect(await send(delivery, service('file:///etc/passwd'))).toMatchObject({ error: 'invalid url' });
  });
});
