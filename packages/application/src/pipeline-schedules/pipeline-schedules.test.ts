import type { AccessLevel, OrganizationRole, PipelineSchedule } from '@ci/domain';
import { pipelineWith } from '@ci/domain/pipeline.fixture';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../ports';
import { ACME, actorWith } from '../use-case.fixture';
import type { DueSchedule, PipelineScheduleChanges, TickOutcome } from './pipeline-schedule-ports';
import {
  createPipelineSchedule,
  listPipelineSchedules,
  runDueSchedules,
  updatePipelineSchedule,
  updatePipelineScheduleById,
} from './pipeline-schedules';

const NOW = new Date('2026-11-27T10:07:30.000Z');
const SCHEDULE_ID = '0190f3a0-0000-7abc-8def-000000000005';
const PIPELINE = pipelineWith({ id: 'p', organizationId: ACME.id, slug: 'app' });

function scheduleWith(overrides: Partial<PipelineSchedule> = {}): PipelineSchedule {
  return {
    id: SCHEDULE_ID,
    pipelineId: 'p',
    label: 'Nightly',
    cronline: '0 2 * * *',
    branch: null,
    commit: null,
    message: null,
    env: {},
    enabled: true,
    nextBuildAt: new Date('2026-11-28T02:00:00.000Z'),
    failedAt: null,
    failedMessage: null,
    createdAt: NOW,
    createdById: 'u',
    ...overrides,
  };
}

function world(input: { role?: OrganizationRole; levels?: AccessLevel[]; due?: DueSchedule[] } = {}) {
  const stored = new Map<string, PipelineSchedule>([[SCHEDULE_ID, scheduleWith()]]);
  const changes: PipelineScheduleChanges[] = [];
  const outcomes: TickOutcome[] = [];
  const due = [...(input.due ?? [])];
  const pipelineSchedules = {
    list: async () => [...stored.values()],
    find: async (_pipelineId: string, id: string) => stored.get(id) ?? null,
    insert: async (schedule: PipelineSchedule) => {
      stored.set(schedule.id, schedule);
    },
    update: async ({ id, changes: change }: { id: string; changes: PipelineScheduleChanges }) => {
      changes.push(change);
      const current = stored.get(id);
      if (!current) return null;
      const next = { ...current, ...change };
      stored.set(id, next);
      return next;
    },
    locate: async (id: string) => (stored.has(id) ? { organization: 'acme', pipeline: 'app' } : null),
    claimDue: async (_at: Date, tick: (due: DueSchedule, repos: unknown) => Promise<TickOutcome>) => {
      const next = due.shift();
      if (!next) return false;
      outcomes.push(await tick(next, {}));
      return true;
    },
  };
  const access = {
    pipeline: async () =>
      input.role || input.levels
        ? {
            organization: ACME,
            role: input.role ?? 'member',
            pipeline: PIPELINE,
            pipelineCreator: null,
            teamAccessLevels: input.levels ?? [],
            pipelineHasTeams: true,
            contentRevision: null,
          }
        : null,
  };
  const deps = {
    repos: { pipelineSchedules, access },
    clock: { now: () => NOW },
    newId: () => '0190f3a0-0000-7abc-8def-000000000001',
  } as unknown as Deps;
  return { deps, stored, changes, outcomes };
}

const actor = actorWith(['read_pipelines', 'write_pipelines']);
const ref = { organization: 'acme', pipeline: 'app', schedule: SCHEDULE_ID };

describe('createPipelineSchedule', () => {
  it('owes the first tick after now, and none when made disabled', async () => {
    const { deps } = world({ role: 'admin' });
    const made = await createPipelineSchedule(deps)(actor, ref, { label: 'x', cronline: '*/15 * * * *' });
    expect(made.schedule.nextBuildAt).toEqual(new Date('2026-11-27T10:15:00.000Z'));
    expect(made.mayManage).toBe(true);
    const off = await createPipelineSchedule(deps)(actor, ref, {
      label: 'x',
      cronline: '@daily',
      enabled: false,
    });
    expect(off.schedule.nextBuildAt).toBeNull();
  });

  it('is refused to who may only build the pipeline, and to a token without write_pipelines', async () => {
    const { deps } = world({ levels: ['build_and_read'] });
    await expect(
      createPipelineSchedule(deps)(actor, ref, { label: 'x', cronline: '@daily' }),
    ).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(
      createPipelineSchedule(world({ role: 'admin' }).deps)(actorWith(['read_pipelines']), ref, {
        label: 'x',
        cronline: '@daily',
      }),
    ).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('lets a reader list, showing they may not manage', async () => {
    const { deps } = world({ levels: ['read_only'] });
    const [view] = await listPipelineSchedules(deps)(actor, ref);
    expect(view?.mayManage).toBe(false);
  });
});

describe('updatePipelineSchedule', () => {
  it.each([
    [
      'a new cronline owes its next tick from now',
      { cronline: '0 * * * *' },
      new Date('2026-11-27T11:00:00.000Z'),
    ],
    ['disabling owes none', { enabled: false }, null],
  ])('%s', async (_name, body, nextBuildAt) => {
    const { deps, changes } = world({ role: 'admin' });
    const updated = await updatePipelineSchedule(deps)(actor, ref, body);
    expect(updated.schedule.nextBuildAt).toEqual(nextBuildAt);
    expect(changes[0]).toHaveProperty('nextBuildAt', nextBuildAt);
  });

  it('keeps the owed tick when neither the cronline nor enabled changes', async () => {
    const { deps, changes } = world({ role: 'admin' });
    await updatePipelineSchedule(deps)(actor, ref, { label: 'Renamed', cronline: '0 2 * * *' });
    expect(changes[0]).not.toHaveProperty('nextBuildAt');
  });

  it('answers 404 for a schedule that is not a UUID of the pipeline', async () => {
    const { deps } = world({ role: 'admin' });
    await expect(
      updatePipelineSchedule(deps)(actor, { ...ref, schedule: '0190f3a0-0000-7abc-8def-000000000009' }, {}),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'Pipeline schedule not found' });
  });
});

describe('updatePipelineScheduleById', () => {
  it('answers the schedule not found when its organization is not the actor’s, as for an unknown id', async () => {
    const { deps } = world();
    for (const id of [SCHEDULE_ID, '0190f3a0-0000-7abc-8def-000000000009', 'not-a-uuid']) {
      await expect(updatePipelineScheduleById(deps)(actor, id, {})).rejects.toMatchObject({
        kind: 'not_found',
        message: 'Pipeline schedule not found',
      });
    }
  });
});

describe('runDueSchedules', () => {
  const dueOn = (pipeline = PIPELINE, schedule = scheduleWith({ cronline: '* * * * *' })): DueSchedule => ({
    organization: ACME,
    pipeline,
    pipelineCreator: null,
    schedule,
  });

  it("records a refused build as the schedule's failure and moves to the next tick after now", async () => {
    const { deps, outcomes } = world({ due: [dueOn(pipelineWith({ ...PIPELINE, archivedAt: NOW }))] });
    expect(await runDueSchedules(deps)(10)).toBe(1);
    expect(outcomes).toEqual([
      {
        at: NOW,
        nextBuildAt: new Date('2026-11-27T10:08:00.000Z'),
        buildId: null,
        failedMessage: expect.stringContaining('archived'),
      },
    ]);
  });

  it('stops when none is due, and after `limit` schedules', async () => {
    const archived = pipelineWith({ ...PIPELINE, archivedAt: NOW });
    const { deps } = world({ due: [dueOn(archived), dueOn(archived), dueOn(archived)] });
    expect(await runDueSchedules(deps)(2)).toBe(2);
    expect(await runDueSchedules(deps)(2)).toBe(1);
    expect(await runDueSchedules(deps)(2)).toBe(0);
  });
});
