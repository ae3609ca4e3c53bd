import { describe, expect, it } from 'vitest';
import {
  type NotificationEvent,
  notificationEventOf,
  parseNotificationService,
  retryDelayMs,
  serviceWants,
  type Transition,
} from './notification-service';

const at = (kind: Transition['kind'], previous: string | null, state: string) =>
  notificationEventOf({ kind, previous, state });

describe('notificationEventOf', () => {
  it.each([
    ['build', null, 'scheduled', 'build.scheduled'],
    ['build', 'scheduled', 'running', 'build.running'],
    ['build', 'running', 'failing', 'build.failing'],
    ['build', 'running', 'passed', 'build.finished'],
    ['build', 'failing', 'failed', 'build.finished'],
    ['build', 'canceling', 'canceled', 'build.finished'],
    ['build', 'running', 'blocked', 'build.finished'],
    ['build', 'scheduled', 'not_run', 'build.finished'],
    ['build', null, 'skipped', 'build.skipped'],
    ['build', 'running', 'canceling', null],
    ['build', 'blocked', 'scheduled', null],
    ['job', null, 'scheduled', 'job.scheduled'],
    ['job', 'waiting', 'scheduled', 'job.scheduled'],
    ['job', 'accepted', 'running', 'job.started'],
    ['job', 'running', 'passed', 'job.finished'],
    ['job', 'running', 'failed', 'job.finished'],
    ['job', 'running', 'lost', 'job.finished'],
    ['job', 'scheduled', 'canceled', 'job.finished'],
    ['job', 'waiting', 'skipped', 'job.finished'],
    ['job', null, 'skipped', null],
    ['job', 'blocked', 'unblocked', 'job.activated'],
    ['job', 'scheduled', 'assigned', null],
    ['job', null, 'waiting', null],
    ['agent', 'registered', 'connected', 'agent.connected'],
    ['agent', 'connected', 'stopping', 'agent.stopping'],
    ['agent', 'stopping', 'stopped', 'agent.stopped'],
    ['agent', 'connected', 'disconnected', 'agent.disconnected'],
    ['agent', 'connected', 'lost', 'agent.lost'],
    ['agent', null, 'registered', null],
  ] as const)('a %s going from %s to %s is %s', (kind, previous, state, event) => {
    expect(at(kind, previous, state)).toBe(event);
  });
});

describe('serviceWants', () => {
  const service = {
    enabled: true,
    events: ['build.finished', 'agent.connected'] as NotificationEvent[],
    pipelineId: null,
    branchFilter: null,
  };
  const where = { pipelineId: 'p1', branch: 'main' };

  it('wants the events it lists, of any pipeline and branch without filters', () => {
    expect(serviceWants(service, 'build.finished', where)).toBe(true);
    expect(serviceWants(service, 'build.running', where)).toBe(false);
    expect(serviceWants(service, 'agent.connected', null)).toBe(true);
  });

  it('wants nothing while disabled', () => {
    expect(serviceWants({ ...service, enabled: false }, 'build.finished', where)).toBe(false);
  });

  it('wants only its pipeline when it names one', () => {
    const one = { ...service, pipelineId: 'p2' };
    expect(serviceWants(one, 'build.finished', where)).toBe(false);
    expect(serviceWants(one, 'build.finished', { ...where, pipelineId: 'p2' })).toBe(true);
  });

  it('still wants agent events with a pipeline filter (agents belong to no pipeline)', () => {
    expect(serviceWants({ ...service, pipelineId: 'p2' }, 'agent.connected', null)).toBe(true);
  });

  it('wants only the branches its filter matches', () => {
    const filtered = { ...service, branchFilter: 'main release/* !release/old' };
    expect(serviceWants(filtered, 'build.finished', where)).toBe(true);
    expect(serviceWants(filtered, 'build.finished', { ...where, branch: 'release/1' })).toBe(true);
    expect(serviceWants(filtered, 'build.finished', { ...where, branch: 'release/old' })).toBe(false);
    expect(serviceWants(filtered, 'build.finished', { ...where, branch: 'feature' })).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base after each failed attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000))).toEqual([1000, 2000, 4000, 8000]);
  });
});

describe('parseNotificationService', () => {
  it('reads a service with defaults for what is absent', () => {
    const parsed = parseNotificationService({ url: 'https://example.com/hook' });
    expect(parsed).toEqual({
      ok: true,
      value: {
        description: 'Webhook',
        url: 'https://example.com/hook',
        events: ['build.finished'],
        branchFilter: null,
        tokenMode: 'token',
        enabled: true,
      },
    });
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://example.com/' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://example.com', events: [] }, 'events'],
    [{ url: 'https://example.com', events: ['build.exploded'] }, 'events'],
    [{ url: 'https://example.com', events: 'build.finished' }, 'events'],
    [{ url: 'https://example.com', tokenMode: 'basic' }, 'token_mode'],
    [{ url: 'https://example.com', enabled: 'yes' }, 'enabled'],
    [{ url: 'https://example.com', description: 'x'.repeat(256) }, 'description'],
    [{ url: 'https://example.com', branchFilter: 7 }, 'branch_filter'],
  ])('refuses %j naming %s', (input, field) => {
    const parsed = parseNotificationService(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.details?.errors.map((error) => error.field)).toContain(field);
  });

  it('keeps on update what the change leaves out', () => {
    const base = parseNotificationService({
      url: 'https://a.example/',
      events: ['ping'],
      tokenMode: 'signature',
    });
    if (!base.ok) throw base.error;
    const changed = parseNotificationService({ enabled: false }, base.value);
    expect(changed.ok && changed.value).toEqual({ ...base.value, enabled: false });
  });
});
