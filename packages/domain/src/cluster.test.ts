import { describe, expect, it } from 'vitest';
import {
  clusterInUse,
  isIpRange,
  mayManageClusters,
  queueDispatches,
  queueForAgent,
  queueForRules,
  readAllowedIpAddresses,
  readPauseNote,
  validateClusterInput,
  validateClusterQueueInput,
  validateClusterTokenInput,
} from './cluster';

const refusal = (message: string) => ({
  ok: false,
  error: expect.objectContaining({ kind: 'unprocessable', message }),
});

describe('validateClusterInput when creating', () => {
  it('trims the name and defaults the other fields to null', () => {
    expect(validateClusterInput({ name: '  Private Apps ' }, { creating: true })).toEqual({
      ok: true,
      value: { name: 'Private Apps', description: null, emoji: null, color: null },
    });
  });

  it('keeps description, emoji and colour as given', () => {
    const body = { name: 'Open Source', description: '', emoji: ':rocket:', color: '#ff0000' };
    expect(validateClusterInput(body, { creating: true })).toEqual({
      ok: true,
      value: { name: 'Open Source', description: '', emoji: ':rocket:', color: '#ff0000' },
    });
  });

  it.each([
    [{}, "Validation failed: Name can't be blank"],
    [{ name: '  ' }, "Validation failed: Name can't be blank"],
    [{ name: 7 }, 'Validation failed: Name is invalid'],
    [{ name: 'a'.repeat(256) }, 'Validation failed: Name is too long (maximum is 255 characters)'],
    [{ name: 'x', emoji: 1, color: false }, 'Validation failed: Emoji is invalid, Color is invalid'],
    [{ name: 'x\u0000' }, "Validation failed: Name can't contain NUL characters or unpaired surrogates"],
    [null, "Validation failed: Name can't be blank"],
  ])('refuses %j with %j', (body, message) => {
    expect(validateClusterInput(body, { creating: true })).toEqual(refusal(message));
  });

  it('ignores default_queue_id: a new cluster has no queue', () => {
    const result = validateClusterInput(
      { name: 'a', default_queue_id: '0190a0a0-0000-7000-8000-000000000001' },
      { creating: true },
    );
    expect(result).toMatchObject({ ok: true, value: { name: 'a' } });
    expect(result.ok && 'defaultQueueId' in result.value).toBe(false);
  });
});

describe('validateClusterInput when updating', () => {
  it('names only what the body gives', () => {
    expect(validateClusterInput({ description: 'Updated description' }, { creating: false })).toEqual({
      ok: true,
      value: { description: 'Updated description' },
    });
  });

  it('sets a default queue by UUID (lowercased) and removes it with null', () => {
    expect(
      validateClusterInput({ default_queue_id: '0190A0A0-0000-7000-8000-00000000000A' }, { creating: false }),
    ).toEqual({ ok: true, value: { defaultQueueId: '0190a0a0-0000-7000-8000-00000000000a' } });
    expect(validateClusterInput({ default_queue_id: null }, { creating: false })).toEqual({
      ok: true,
      value: { defaultQueueId: null },
    });
  });

  it('refuses a blank name and a default queue that is not a UUID, at once', () => {
    expect(validateClusterInput({ name: '', default_queue_id: 'q' }, { creating: false })).toEqual(
      refusal("Validation failed: Name can't be blank, Default queue is invalid"),
    );
  });
});

describe('validateClusterQueueInput', () => {
  it('reads the key with the defaults of a new queue', () => {
    expect(validateClusterQueueInput({ key: 'arm64' }, { creating: true })).toEqual({
      ok: true,
      value: { key: 'arm64', description: null, hostedAgents: null, retryAgentAffinity: 'prefer-warmest' },
    });
  });

  it('keeps hosted-agent settings as given', () => {
    const hosted = { instanceShape: 'LINUX_AMD64_2X4' };
    expect(validateClusterQueueInput({ key: 'a', hosted_agents: hosted }, { creating: true })).toMatchObject({
      ok: true,
      value: { hostedAgents: hosted },
    });
  });

  it.each([
    [{}, "Validation failed: Key can't be blank"],
    [
      { key: 'has space' },
      'Validation failed: Key may only contain letters, digits, dots, hyphens and underscores',
    ],
    [{ key: 3 }, 'Validation failed: Key is invalid'],
    [{ key: 'a', hosted_agents: 'big' }, 'Validation failed: Hosted agents is invalid'],
    [
      { key: 'a', retry_agent_affinity: 'any' },
      'Validation failed: Retry agent affinity is not included in the list',
    ],
  ])('refuses %j', (body, message) => {
    expect(validateClusterQueueInput(body, { creating: true })).toEqual(refusal(message));
  });

  it('ignores the key on update: it is fixed at creation', () => {
    expect(validateClusterQueueInput({ key: 'x', description: 'ARM' }, { creating: false })).toEqual({
      ok: true,
      value: { description: 'ARM' },
    });
  });
});

describe('readPauseNote', () => {
  it.each([
    [{ note: 'security issue' }, 'security issue'],
    [{}, null],
    [null, null],
    [{ note: null }, null],
  ])('reads %j as %j', (body, note) => {
    expect(readPauseNote(body)).toEqual({ ok: true, value: note });
  });

  it('refuses a note that is not text', () => {
    expect(readPauseNote({ note: 5 })).toEqual(refusal('Validation failed: Note is invalid'));
  });
});

describe('validateClusterTokenInput', () => {
  it('needs a description when creating', () => {
    expect(validateClusterTokenInput({}, { creating: true })).toEqual(
      refusal("Validation failed: Description can't be blank"),
    );
    expect(validateClusterTokenInput({ description: 'Windows Agents' }, { creating: true })).toEqual({
      ok: true,
      value: { description: 'Windows Agents', allowedIpAddresses: null, expiresAt: null },
    });
  });

  it('reads an expiry as a timestamp', () => {
    expect(
      validateClusterTokenInput({ description: 'd', expires_at: '2027-01-01T00:00:00Z' }, { creating: true }),
    ).toMatchObject({ ok: true, value: { expiresAt: new Date('2027-01-01T00:00:00Z') } });
    expect(validateClusterTokenInput({ description: 'd', expires_at: 'soon' }, { creating: true })).toEqual(
      refusal('Validation failed: Expires at is invalid'),
    );
  });

  it('updates allowed IP addresses alone, normalising the spaces', () => {
    expect(
      validateClusterTokenInput({ allowed_ip_addresses: ' 1.1.1.1   10.0.0.0/8 ' }, { creating: false }),
    ).toEqual({ ok: true, value: { allowedIpAddresses: '1.1.1.1 10.0.0.0/8' } });
  });

  it('refuses an address that is not one', () => {
    expect(validateClusterTokenInput({ allowed_ip_addresses: '1.1.1.256' }, { creating: false })).toEqual(
      refusal('Validation failed: Allowed ip addresses contains an invalid address: 1.1.1.256'),
    );
  });
});

describe('readAllowedIpAddresses', () => {
  it.each([
    [null, null],
    ['', null],
    ['   ', null],
    ['1.1.1.1', '1.1.1.1'],
  ])('reads %j as %j', (value, expected) => {
    expect(readAllowedIpAddresses(value)).toEqual({ ok: true, value: expected });
  });

  it('refuses what is not text', () => {
    expect(readAllowedIpAddresses(['1.1.1.1'])).toEqual({
      ok: false,
      error: 'Allowed ip addresses is invalid',
    });
  });
});

describe('isIpRange', () => {
  it.each([
    ['1.1.1.1', true],
    ['192.168.0.0/16', true],
    ['0.0.0.0/0', true],
    ['10.0.0.0/33', false],
    ['01.1.1.1', false],
    ['1.1.1', false],
    ['::1', true],
    ['2001:db8::/32', true],
    ['2001:db8:0:0:0:0:0:1', true],
    ['::ffff:192.0.2.1', true],
    ['2001:db8::1::2', false],
    ['2001:db8::/129', false],
    ['fe80::zz', false],
    ['1.1.1.1/8/8', false],
    ['example.com', false],
  ])('says %j is an address or range: %s', (entry, expected) => {
    expect(isIpRange(entry)).toBe(expected);
  });
});

describe('mayManageClusters', () => {
  it('lets admins manage clusters, not members', () => {
    expect(mayManageClusters('admin')).toBe(true);
    expect(mayManageClusters('member')).toBe(false);
  });
});

describe('clusterInUse', () => {
  it('names how many pipelines keep the cluster', () => {
    expect(clusterInUse({ pipelines: 1, agents: 0 }).message).toBe(
      "This cluster can't be deleted: 1 pipeline uses it. Move it to another cluster first.",
    );
    expect(clusterInUse({ pipelines: 3, agents: 0 }).message).toContain('3 pipelines use it');
  });
  it('names the connected agents still in it', () => {
    expect(clusterInUse({ pipelines: 0, agents: 2 }).message).toBe(
      "This cluster can't be deleted: 2 connected agents are in it. Stop them first.",
    );
    expect(clusterInUse({ pipelines: 1, agents: 1 }).message).toBe(
      "This cluster can't be deleted: 1 pipeline uses it and 1 connected agent is in it. Move the pipelines to another cluster and stop the agents first.",
    );
  });
});

const placement = {
  clusterId: 'c1',
  name: 'Linux',
  defaultQueueId: 'q-default',
  queueIds: new Map([
    ['default', 'q-default'],
    ['deploy', 'q-deploy'],
  ]),
};

describe('queueForRules', () => {
  it.each<[string[], string | null]>([
    [[], 'q-default'],
    [['os=linux'], 'q-default'],
    [['queue=deploy'], 'q-deploy'],
    [['queue=default', 'os=linux'], 'q-default'],
    [['queue=missing'], null],
  ])('rules %j wait in %s', (rules, expected) => {
    expect(queueForRules(rules, placement)).toBe(expected);
  });
  it('leaves jobs without a queue rule without a queue when the cluster has no default', () => {
    expect(queueForRules([], { ...placement, defaultQueueId: null })).toBeNull();
  });
});

describe('queueForAgent', () => {
  it("puts an agent in the queue its tag names, or in the cluster's default queue", () => {
    expect(queueForAgent(['queue=deploy'], placement)).toEqual({
      ok: true,
      value: { queueId: 'q-deploy', key: 'deploy' },
    });
    expect(queueForAgent(['os=linux'], placement)).toEqual({
      ok: true,
      value: { queueId: 'q-default', key: 'default' },
    });
  });
  it('refuses a queue the cluster does not have, naming its queues', () => {
    expect(queueForAgent(['queue=gpu'], placement)).toEqual(
      refusal('The queue "gpu" is not a queue of the cluster "Linux" (its queues: default, deploy)'),
    );
  });
  it('refuses an agent without a queue tag when the cluster has no default queue', () => {
    expect(queueForAgent([], { ...placement, defaultQueueId: null })).toEqual(
      refusal(
        'The cluster "Linux" has no default queue: give the agent a queue tag (queue=<key>) naming one of its queues',
      ),
    );
  });
});

describe('queueDispatches', () => {
  it('hands out jobs unless dispatch is paused', () => {
    expect(queueDispatches(null)).toBe(true);
    expect(queueDispatches({ dispatchPausedAt: null })).toBe(true);
    expect(queueDispatches({ dispatchPausedAt: new Date() })).toBe(false);
  });
});
