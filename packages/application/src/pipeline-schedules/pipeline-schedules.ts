import {
  allows,
  type DomainError,
  distinctUuids,
  isDomainError,
  isUuid,
  newBuildRefusal,
  notFound,
  type PipelineSchedule,
  type PipelineScheduleFields,
  parsePipelineScheduleRequest,
  parsePipelineScheduleSlug,
  pipelineScheduleBuildRequest,
  pipelineScheduleErrors,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { type AuthorizedPipeline, requirePipeline, requireScope } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import { scheduleBuild } from '../builds/create-build';
import { inboundTarget } from '../inbound/source-webhooks';
import { addressPipeline, visiblePipelinesById } from '../pipelines/pipelines-by-id';
import type { Deps } from '../ports';
import { checkCron, nextTick } from './cron';
import type { PipelineScheduleChanges } from './pipeline-schedule-ports';

export interface PipelineScheduleRef extends PipelineRef {
  schedule: string;
}

/** A schedule as its pipeline's answers show it; `mayManage`: the viewer may change and delete it. */
export interface PipelineScheduleView {
  schedule: PipelineSchedule;
  organizationSlug: string;
  pipelineSlug: string;
  mayManage: boolean;
}

type ScheduleOperation = 'getPipelineSchedule' | 'updatePipelineSchedule' | 'deletePipelineSchedule';

/** Reading needs the pipeline's read access; changing needs what editing the pipeline needs. */
const actionOf = (operation: ScheduleOperation | 'listPipelineSchedules' | 'createPipelineSchedule') =>
  operation === 'getPipelineSchedule' || operation === 'listPipelineSchedules' ? 'read' : 'manage';

function viewOf(
  target: Pick<AuthorizedPipeline, 'organization' | 'pipeline' | 'access'>,
  schedule: PipelineSchedule,
): PipelineScheduleView {
  return {
    schedule,
    organizationSlug: target.organization.slug,
    pipelineSlug: target.pipeline.slug,
    mayManage: allows(target.access, 'manage'),
  };
}

export const listPipelineSchedules =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef): Promise<PipelineScheduleView[]> => {
    const target = await requirePipeline(deps)(actor, 'listPipelineSchedules', ref, 'read');
    const schedules = await deps.repos.pipelineSchedules.list(target.pipeline.id);
    return schedules.map((schedule) => viewOf(target, schedule));
  };

type ScheduleTarget = Pick<AuthorizedPipeline, 'organization' | 'pipeline' | 'access'>;

/** Those of these pipelines the actor may see, by id, as a schedule's target. */
async function seenPipelines(
  deps: Deps,
  actor: Actor,
  pipelineIds: readonly string[],
): Promise<Map<string, ScheduleTarget>> {
  const seen = new Map<string, ScheduleTarget>();
  for (const [id, { pipeline, membership, access }] of await visiblePipelinesById(deps, actor, pipelineIds)) {
    seen.set(id, { organization: membership.organization, pipeline, access });
  }
  return seen;
}

/** The schedules of each of these pipelines (GraphQL `Pipeline.schedules` of a page), read together. */
export const listSchedulesOfPipelines =
  (deps: Deps) =>
  async (
    actor: Actor,
    pipelineIds: readonly string[],
  ): Promise<Array<PipelineScheduleView[] | DomainError>> => {
    requireScope(actor, 'listPipelineSchedules');
    const seen = await seenPipelines(deps, actor, pipelineIds);
    const byPipeline = new Map<string, PipelineSchedule[]>();
    if (seen.size > 0) {
      for (const schedule of await deps.repos.pipelineSchedules.listOfPipelines([...seen.keys()])) {
        const schedules = byPipeline.get(schedule.pipelineId);
        if (schedules) schedules.push(schedule);
        else byPipeline.set(schedule.pipelineId, [schedule]);
      }
    }
    return pipelineIds.map((id) => {
      const target = seen.get(id.toLowerCase());
      if (!target) return notFound('pipeline');
      return (byPipeline.get(target.pipeline.id) ?? []).map((schedule) => viewOf(target, schedule));
    });
  };

/** Schedules by id (GraphQL `node`, a build's source), read together; null: missing or not to be seen. */
export const getPipelineSchedulesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<PipelineScheduleView | null>> => {
    requireScope(actor, 'getPipelineSchedule');
    const wanted = distinctUuids(ids);
    const schedules = wanted.length > 0 ? await deps.repos.pipelineSchedules.findMany(wanted) : [];
    const seen = await seenPipelines(
      deps,
      actor,
      schedules.map((schedule) => schedule.pipelineId),
    );
    const views = new Map<string, PipelineScheduleView>();
    for (const schedule of schedules) {
      const target = seen.get(schedule.pipelineId);
      if (target) views.set(schedule.id, viewOf(target, schedule));
    }
    return ids.map((id) => views.get(id.toLowerCase()) ?? null);
  };

async function requireSchedule(
  deps: Deps,
  actor: Actor,
  operation: ScheduleOperation,
  ref: PipelineScheduleRef,
) {
  const target = await requirePipeline(deps)(actor, operation, ref, actionOf(operation));
  const schedule = isUuid(ref.schedule)
    ? await deps.repos.pipelineSchedules.find(target.pipeline.id, ref.schedule.toLowerCase())
    : null;
  if (!schedule) throw pipelineScheduleErrors.notFound();
  return { target, schedule };
}

export const getPipelineSchedule =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineScheduleRef): Promise<PipelineScheduleView> => {
    const { target, schedule } = await requireSchedule(deps, actor, 'getPipelineSchedule', ref);
    return viewOf(target, schedule);
  };

/** The tick a schedule owes from now: the cronline's next, or none while disabled. */
function owedTick(deps: Deps, fields: Pick<PipelineScheduleFields, 'cronline' | 'enabled'>): Date | null {
  return fields.enabled ? nextTick(fields.cronline, deps.clock.now()) : null;
}

export const createPipelineSchedule =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef, body: unknown): Promise<PipelineScheduleView> => {
    const target = await requirePipeline(deps)(actor, 'createPipelineSchedule', ref, 'manage');
    const parsed = parsePipelineScheduleRequest(body, { partial: false, checkCron });
    if (!parsed.ok) throw parsed.error;
    const fields = parsed.value as PipelineScheduleFields;
    const schedule: PipelineSchedule = {
      ...fields,
      id: deps.newId(),
      pipelineId: target.pipeline.id,
      nextBuildAt: owedTick(deps, fields),
      failedAt: null,
      failedMessage: null,
      createdAt: deps.clock.now(),
      createdById: actor.user.id,
    };
    await deps.repos.pipelineSchedules.insert(schedule);
    return viewOf(target, schedule);
  };

export const updatePipelineSchedule =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineScheduleRef, body: unknown): Promise<PipelineScheduleView> => {
    const { target, schedule } = await requireSchedule(deps, actor, 'updatePipelineSchedule', ref);
    const parsed = parsePipelineScheduleRequest(body, { partial: true, checkCron });
    if (!parsed.ok) throw parsed.error;
    const changes: PipelineScheduleChanges = { ...parsed.value };
    const after = { ...schedule, ...parsed.value };
    // A new cronline, or enabling, owes the next tick from now; disabling owes none.
    if (after.cronline !== schedule.cronline || after.enabled !== schedule.enabled) {
      changes.nextBuildAt = owedTick(deps, after);
    }
    const updated = await deps.repos.pipelineSchedules.update({
      pipelineId: target.pipeline.id,
      id: schedule.id,
      changes,
    });
    if (!updated) throw pipelineScheduleErrors.notFound();
    return viewOf(target, updated);
  };

export const deletePipelineSchedule =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineScheduleRef): Promise<PipelineScheduleView> => {
    const { target, schedule } = await requireSchedule(deps, actor, 'deletePipelineSchedule', ref);
    if (!(await deps.repos.pipelineSchedules.delete(target.pipeline.id, schedule.id))) {
      throw pipelineScheduleErrors.notFound();
    }
    return viewOf(target, schedule);
  };

/**
 * GraphQL: `use` on the schedule with this UUID, addressed by its organization's and pipeline's slugs. Any
 * not-found (its organization or pipeline unseen by the actor too) is the schedule's, so an id tells
 * nothing of where an unseen schedule is.
 */
async function withScheduleId<T>(
  deps: Deps,
  id: string | null,
  use: (ref: PipelineScheduleRef) => Promise<T>,
): Promise<T> {
  const where = id && isUuid(id) ? await deps.repos.pipelineSchedules.locate(id.toLowerCase()) : null;
  if (!where) throw pipelineScheduleErrors.notFound();
  try {
    return await use({ ...where, schedule: id as string });
  } catch (error) {
    if (isDomainError(error) && error.kind === 'not_found') throw pipelineScheduleErrors.notFound();
    throw error;
  }
}

/** GraphQL's `pipelineSchedule(slug:)`: `organization/pipeline/schedule-uuid`. */
export const findPipelineScheduleBySlug =
  (deps: Deps) =>
  async (actor: Actor, slug: string): Promise<PipelineScheduleView> => {
    requireScope(actor, 'getPipelineSchedule');
    const ref = parsePipelineScheduleSlug(slug);
    if (!ref) throw pipelineScheduleErrors.notFound();
    return getPipelineSchedule(deps)(actor, ref);
  };

export const createPipelineScheduleOnPipelineId =
  (deps: Deps) =>
  async (actor: Actor, pipelineId: string | null, body: unknown): Promise<PipelineScheduleView> => {
    requireScope(actor, 'createPipelineSchedule');
    const { ref } = await addressPipeline(deps, actor, pipelineId);
    return createPipelineSchedule(deps)(actor, ref, body);
  };

export const updatePipelineScheduleById =
  (deps: Deps) =>
  async (actor: Actor, id: string | null, body: unknown): Promise<PipelineScheduleView> => {
    requireScope(actor, 'updatePipelineSchedule');
    return withScheduleId(deps, id, (ref) => updatePipelineSchedule(deps)(actor, ref, body));
  };

export const deletePipelineScheduleById =
  (deps: Deps) =>
  async (actor: Actor, id: string | null): Promise<PipelineScheduleView> => {
    requireScope(actor, 'deletePipelineSchedule');
    return withScheduleId(deps, id, (ref) => deletePipelineSchedule(deps)(actor, ref));
  };

/**
 * A window of the builds a schedule the actor reads made (GraphQL `PipelineSchedule.builds`): their ids,
 * newest first, for the builds' loader, which shows each as the actor may see it.
 */
export const buildsOfSchedule =
  (deps: Deps) => async (actor: Actor, scheduleId: string, window: { offset: number; limit: number }) => {
    requireScope(actor, 'listBuilds');
    return deps.repos.pipelineSchedules.buildsOf({ scheduleId, ...window });
  };

/** The schedule that made each of these builds, for GraphQL's `BuildSourceSchedule.pipelineSchedule`. */
export const schedulesOfBuilds = (deps: Deps) => (buildIds: readonly string[]) =>
  deps.repos.pipelineSchedules.ofBuilds(buildIds);

/**
 * The schedules' tick (background, no actor): each due schedule, one at a time and each in its own
 * transaction, gets one build (source `schedule`, no creator) and moves to its first tick after now.
 * Ticks missed while no process ran are not made up: one build, then the next tick from now (ADR 0024).
 * A build the pipeline refuses (archived, …) is recorded as the schedule's failure and the tick moves on.
 * Answers how many schedules it ran (at most `limit`, so one run cannot starve the rest of the queue).
 */
export const runDueSchedules =
  (deps: Deps) =>
  async (limit: number): Promise<number> => {
    let ran = 0;
    while (ran < limit) {
      const claimed = await deps.repos.pipelineSchedules.claimDue(deps.clock.now(), async (due, repos) => {
        const now = deps.clock.now();
        // The first tick after now: ticks missed while no process ran get this one catch-up build only.
        const nextBuildAt = nextTick(due.schedule.cronline, now);
        const request = pipelineScheduleBuildRequest(due.schedule, due.pipeline);
        const refusal = newBuildRefusal(due.pipeline, { ...request, ignorePipelineBranchFilters: true });
        if (refusal) return { at: now, nextBuildAt, buildId: null, failedMessage: refusal.message };
        const created = await scheduleBuild({ ...deps, repos })(inboundTarget(due), null, {
          ...request,
          rebuiltFrom: null,
          source: 'schedule',
        });
        return { at: now, nextBuildAt, buildId: created.view.build.id, failedMessage: null };
      });
      if (!claimed) break;
      ran++;
    }
    return ran;
  };
