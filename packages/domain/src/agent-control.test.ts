import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_CONNECTION_STATES,
  agentAction,
  connectionStateAfterDisconnect,
  mayTakeNewJob,
  parsePauseRequest,
  parseStopRequest,
  pauseAgent,
  resumeAgent,
  stopAgent,
} from './agent-control';
import type { Agent } from './entities';

const at = new Date('2026-11-27T10:00:00.000Z');
const minutes = (n: number) => new Date(at.getTime() + n * 60_000);

const agent = (change: Partial<Agent> = {}): Agent => ({
  id: '0190f3a0-5555-7abc-8def-0123456789ab',
  organizationId: '0190f3a0-1111-7abc-8def-0123456789ab',
  name: 'builder-1',
  hostname: 'builder',
  ipAddress: null,
  userAgent: null,
  connectionState: 'connected',
  tags: ['queue=default'],
  creatorId: null,
  createdAt: minutes(-60),
  version: '3.80.0',
  pid: '42',
  connectedAt: minutes(-60),
  disconnectedAt: null,
  heartbeatAt: null,
  pausedAt: null,
  pauseNote: null,
  clusterId: null,
  clusterQueueId: null,
  pausedUntil: null,
  ...change,
});

const paused = { pausedAt: minutes(-1), pauseNote: 'disk', pausedUntil: minutes(4) };
const pauseTimedOut = { pausedAt: minutes(-10), pauseNote: null, pausedUntil: minutes(-5) };

describe('agentAction', () => {
  it.each([
    ['registered', {}, 'idle'],
    ['connected', {}, 'idle'],
    ['connected', paused, 'pause'],
    ['connected', pauseTimedOut, 'idle'],
    ['stopping', {}, 'disconnect'],
    ['stopping', paused, 'disconnect'],
    ['stopped', {}, 'disconnect'],
    ['disconnected', {}, 'disconnect'],
    ['disconnected', paused, 'disconnect'],
    ['lost', {}, 'disconnect'],
  ] as const)('tells a %s agent (%o) to %s', (connectionState, change, action) => {
    expect(agentAction(agent({ connectionState, ...change }), at)).toBe(action);
  });

  it('gives a new job only to an idle agent, whatever its state and pause', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...AGENT_CONNECTION_STATES),
        fc.option(fc.integer({ min: -20_000, max: 20_000 })),
        (connectionState, until) => {
          const subject = agent({ connectionState, pausedUntil: until === null ? null : minutes(until) });
          const eligible =
            (connectionState === 'connected' || connectionState === 'registered') &&
            (until === null || until <= 0);
          expect(mayTakeNewJob(subject, at)).toBe(eligible);
        },
      ),
    );
  });
});

describe('connectionStateAfterDisconnect', () => {
  it.each([
    ['stopping', 'stopped'],
    ['connected', 'disconnected'],
    ['registered', 'disconnected'],
    ['stopped', 'disconnected'],
    ['lost', 'disconnected'],
  ])('leaves a %s agent %s', (state, after) => {
    expect(connectionStateAfterDisconnect(state)).toBe(after);
  });
});

describe('stopAgent', () => {
  it.each(['registered', 'connected', 'stopping'])('makes a %s agent stopping', (connectionState) => {
    expect(stopAgent(agent({ connectionState }))).toEqual({
      ok: true,
      value: agent({ connectionState: 'stopping' }),
    });
  });

  it.each(['stopped', 'disconnected', 'lost'])('refuses a %s agent with a 422', (connectionState) => {
    const result = stopAgent(agent({ connectionState }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('unprocessable');
      expect(result.error.message).toBe('The agent is not connected');
    }
  });
});

describe('pauseAgent and resumeAgent', () => {
  it('pauses for the timeout, with its note, and pausing again starts a new pause', () => {
    const first = pauseAgent(agent(), { note: 'disk', timeoutInMinutes: 15 }, at);
    expect(first).toEqual({
      ok: true,
      value: agent({ pausedAt: at, pauseNote: 'disk', pausedUntil: minutes(15) }),
    });
    const again = pauseAgent(agent(paused), { note: null, timeoutInMinutes: 1 }, at);
    expect(again.ok && again.value.pausedUntil).toEqual(minutes(1));
  });

  it.each([
    ['stopping', 'The agent is stopping'],
    ['stopped', 'The agent is not connected'],
    ['disconnected', 'The agent is not connected'],
    ['lost', 'The agent is not connected'],
  ])('refuses to pause a %s agent', (connectionState, message) => {
    const result = pauseAgent(agent({ connectionState }), { note: null, timeoutInMinutes: 5 }, at);
    expect(result.ok ? null : result.error.message).toBe(message);
  });

  it('resumes a paused agent', () => {
    expect(resumeAgent(agent(paused), at)).toEqual({ ok: true, value: agent() });
  });

  it.each([
    ['never paused', {}],
    ['whose pause timed out', pauseTimedOut],
  ])('refuses to resume an agent %s', (_name, change) => {
    const result = resumeAgent(agent(change), at);
    expect(result.ok ? null : result.error.message).toBe('The agent is not paused');
  });
});

describe('parseStopRequest', () => {
  it.each([
    [undefined, false],
    [null, false],
    [{}, false],
    [{ force: true }, true],
    [{ force: false, other: 1 }, false],
    [{ force: null }, false],
  ])('reads %o as force %s', (input, force) => {
    expect(parseStopRequest(input)).toEqual({ ok: true, value: { force } });
  });

  it.each([{ force: 'yes' }, { force: 1 }, { force: 'false' }])('refuses %o with a 422', (input) => {
    const result = parseStopRequest(input);
    expect(result.ok ? null : [result.error.kind, result.error.message]).toEqual([
      'unprocessable',
      'force must be true or false',
    ]);
  });
});

describe('parsePauseRequest', () => {
  it.each([
    [undefined, { note: null, timeoutInMinutes: 5 }],
    [{}, { note: null, timeoutInMinutes: 5 }],
    [
      { note: '', timeout_in_minutes: 1 },
      { note: null, timeoutInMinutes: 1 },
    ],
    [
      { note: 'disk full', timeout_in_minutes: 10_080 },
      { note: 'disk full', timeoutInMinutes: 10_080 },
    ],
  ])('reads %o', (input, request) => {
    expect(parsePauseRequest(input)).toEqual({ ok: true, value: request });
  });

  it.each([
    [{ note: 5 }, 'note must be a string'],
    [{ note: 'x'.repeat(1001) }, 'note is too long (maximum is 1000 characters)'],
    [{ note: 'a\u0000b' }, "note can't contain NUL characters or unpaired surrogates"],
    [{ timeout_in_minutes: 0 }, 'timeout_in_minutes must be a whole number from 1 to 10080'],
    [{ timeout_in_minutes: 10_081 }, 'timeout_in_minutes must be a whole number from 1 to 10080'],
    [{ timeout_in_minutes: 1.5 }, 'timeout_in_minutes must be a whole number from 1 to 10080'],
    [{ timeout_in_minutes: '5' }, 'timeout_in_minutes must be a whole number from 1 to 10080'],
  ])('refuses %o with a 422', (input, message) => {
    const result = parsePauseRequest(input);
    expect(result.ok ? null : [result.error.kind, result.error.message]).toEqual(['unprocessable', message]);
  });
});
