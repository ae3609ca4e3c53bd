import {
  type Agent,
  DomainError,
  isPaused,
  notFound,
  type Operation,
  parsePauseRequest,
  parseStopRequest,
  pauseAgent as pause,
  type Result,
  resumeAgent as resume,
  stopAgent as stop,
  type User,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { JobResult } from '../builds/builds-by-id';
import { changeJob } from '../jobs/change-job';
import type { Page } from '../page';
import type { Deps } from '../ports';
import { type AgentRef, getWorkOfAgents, requireAgent } from './agents-by-id';
import { listAgents } from './list-agents';

/** An agent as REST shows it: with its creator, the job it holds (as the actor may see it) and its last finish. */
export interface AgentView {
  agent: Agent;
  creator: User | null;
  job: JobResult | null;
  lastJobFinishedAt: Date | null;
  /** paused now (its pause has not timed out) */
  paused: boolean;
}

/** REST's agent list filters: exact matches. */
export interface AgentRestQuery {
  name?: string | undefined;
  hostname?: string | undefined;
  version?: string | undefined;
}

async function viewsOf(deps: Deps, actor: Actor, agents: readonly Agent[]): Promise<AgentView[]> {
  const creatorIds = [...new Set(agents.flatMap((agent) => (agent.creatorId ? [agent.creatorId] : [])))];
  const [work, creators] = await Promise.all([
    getWorkOfAgents(deps)(
      actor,
      agents.map((agent) => agent.id),
    ),
    creatorIds.length ? deps.repos.lookups.users(creatorIds) : [],
  ]);
  const creatorsById = new Map(creators.map(({ user }) => [user.id, user]));
  const at = deps.clock.now();
  return agents.map((agent, i) => ({
    agent,
    creator: agent.creatorId ? (creatorsById.get(agent.creatorId) ?? null) : null,
    job: work[i]?.job ?? null,
    lastJobFinishedAt: work[i]?.lastJobFinishedAt ?? null,
    paused: isPaused(agent, at),
  }));
}

/**
 * An organization's agents still there (not disconnected or stopped), as the public REST API lists them,
 * oldest first: `read_agents`, then the organization.
 */
export const listAgentViews =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    query: AgentRestQuery,
    page: Page,
  ): Promise<{ items: AgentView[]; totalCount: number }> => {
    const { items, totalCount } = await listAgents(deps)(
      actor,
      organizationSlug,
      { ...query, presentOnly: true },
      page,
    );
    return { items: await viewsOf(deps, actor, items), totalCount };
  };

export const getAgentView =
  (deps: Deps) =>
  async (actor: Actor, ref: AgentRef): Promise<AgentView> => {
    const agent = await requireAgent(deps)(actor, 'getAgent', ref);
    const [view] = await viewsOf(deps, actor, [agent]);
    return view!;
  };

/** Applies a domain change to the agent `ref` names, under its row's lock. */
async function control(
  deps: Deps,
  actor: Actor,
  input: { operation: Operation; ref: AgentRef; change: (agent: Agent) => Result<Agent> },
): Promise<Agent> {
  const agent = await requireAgent(deps)(actor, input.operation, input.ref);
  const changed = await deps.repos.agents.change(agent.id, (current) => {
    const next = input.change(current);
    if (!next.ok) throw next.error;
    return next.value;
  });
  if (!changed) throw notFound('agent');
  return changed;
}

/**
 * Stops an agent: it takes no new job and is told to disconnect at its next ping. With `force` the job it
 * holds is canceled (it stops the job at its next job-state poll); without, it finishes the job first.
 */
export const stopAgent =
  (deps: Deps) =>
  async (actor: Actor, ref: AgentRef, body: unknown): Promise<void> => {
    const request = parseStopRequest(body);
    const agent = await control(deps, actor, {
      operation: 'stopAgent',
      ref,
      change: (current) => (request.ok ? stop(current) : request),
    });
    if (!request.ok || !request.value.force) return;
    // After the stop: a dispatch that came first has committed its job, and none comes after.
    const held = await deps.repos.jobs.activeJobOf(agent.id);
    if (!held) return;
    try {
      await changeJob(deps)({ buildId: held.buildId, jobId: held.job.id, trigger: { type: 'cancel' } });
    } catch (error) {
      // Finished or canceled meanwhile: nothing left to stop.
      if (!(error instanceof DomainError)) throw error;
    }
  };

/** Pauses an agent: it stays connected and takes no new job until resumed or its timeout passes. */
export const pauseAgent =
  (deps: Deps) =>
  async (actor: Actor, ref: AgentRef, body: unknown): Promise<void> => {
    const request = parsePauseRequest(body);
    await control(deps, actor, {
      operation: 'pauseAgent',
      ref,
      change: (current) => (request.ok ? pause(current, request.value, deps.clock.now()) : request),
    });
  };

export const resumeAgent =
  (deps: Deps) =>
  async (actor: Actor, ref: AgentRef): Promise<void> => {
    await control(deps, actor, {
      operation: 'resumeAgent',
      ref,
      change: (current) => resume(current, deps.clock.now()),
    });
  };
