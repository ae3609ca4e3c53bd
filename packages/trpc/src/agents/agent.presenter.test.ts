import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentView } from '@ci/application';
import type { Agent, User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { presentAgent, presentAgents } from './agent.presenter';
import { AgentResourceWire } from './agent.wire';

// The recorded response (a copy of ../shared/reference/recorded, so the test is hermetic).
const RECORDED = {
  agent_retrieve: JSON.parse(
    readFileSync(
      resolve(import.meta.dirname, '../../../../test/fixtures/recorded/agent_retrieve.json'),
      'utf8',
    ),
  ).response as { body: Record<string, unknown> },
};

const urls = { api: 'https://api.ci.test', web: 'https://ci.test' };
const id = '0190f3a0-5555-7abc-8def-0123456789ab';

const agent: Agent = {
  id,
  organizationId: '0190f3a0-2222-7abc-8def-0123456789ab',
  name: 'builder-1',
  hostname: 'builder',
  ipAddress: '10.0.0.1',
  userAgent: 'buildkite-agent/3.80.0 (linux; amd64)',
  connectionState: 'connected',
  tags: ['queue=default', 'os=linux'],
  creatorId: null,
  createdAt: new Date('2026-11-27T09:00:00.000Z'),
  version: '3.80.0',
  pid: '42',
  connectedAt: new Date('2026-11-27T09:00:01.000Z'),
  disconnectedAt: null,
  heartbeatAt: null,
  pausedAt: new Date('2026-11-27T10:00:00.000Z'),
  pauseNote: 'disk full',
  pausedUntil: new Date('2026-11-27T10:05:00.000Z'),
  clusterId: null,
  clusterQueueId: null,
};

const view = (change: Partial<AgentView> = {}): AgentView => ({
  agent,
  creator: null,
  job: null,
  lastJobFinishedAt: null,
  paused: false,
  ...change,
});

describe('presentAgent', () => {
  it('answers the recorded keys in their order, then graphql_id and the pause', () => {
    const ours = presentAgent(view(), 'acme', urls);
    const recorded = Object.keys(RECORDED.agent_retrieve.body);
    expect(
      Object.keys(ours)
        .filter((key) => recorded.includes(key))
        .sort(),
    ).toEqual([...recorded].sort());
    expect(AgentResourceWire.parse(ours)).toEqual(ours);
    expect(ours).toMatchObject({
      url: `https://api.ci.test/v2/organizations/acme/agents/${id}`,
      web_url: `https://ci.test/organizations/acme/agents/${id}`,
      meta_data: ['queue=default', 'os=linux'],
      priority: 0,
      job: null,
    });
  });

  it('shows a pause only while the agent is paused', () => {
    expect(presentAgent(view({ paused: true }), 'acme', urls)).toMatchObject({
      paused: true,
      paused_at: '2026-11-27T10:00:00.000Z',
      paused_note: 'disk full',
      paused_until: '2026-11-27T10:05:00.000Z',
    });
    expect(presentAgent(view(), 'acme', urls)).toMatchObject({
      paused: false,
      paused_at: null,
      paused_note: null,
      paused_until: null,
    });
  });

  it('shows the creator as a user, and when it last finished a job', () => {
    const creator: User = {
      id: '0190f3a0-4444-7abc-8def-0123456789ab',
      name: 'Agent Owner',
      email: 'owner@acme.test',
      avatarUrl: null,
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
    };
    const [ours] = presentAgents(
      [view({ creator, lastJobFinishedAt: new Date('2026-11-27T09:30:00.000Z') })],
      'acme',
      urls,
    );
    expect(ours?.creator).toMatchObject({ id: creator.id, name: 'Agent Owner', email: 'owner@acme.test' });
    expect(ours?.last_job_finished_at).toBe('2026-11-27T09:30:00.000Z');
  });
});
