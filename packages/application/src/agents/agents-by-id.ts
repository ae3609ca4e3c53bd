import { type Agent, distinctUuids, isUuid, notFound, type Operation } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { allowsOperation, requireOrganization, requireScope, requireSlugParts } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type JobResult, jobsInBuilds } from '../builds/builds-by-id';
import type { Deps } from '../ports';

/**
 * The agent use cases for a transport that names agents by UUID (GraphQL). Every member of an
 * organization may read its agents (`read_agents`), as in the public API; an agent of an organization
 * the actor may not use answers as one that does not exist.
 */

/** An agent of an organization by its UUID, as `GET /v2/organizations/{org}/agents/{id}` would answer. */
export const getAgent =
  (deps: Deps) =>
  (actor: Actor, ref: AgentRef): Promise<Agent> =>
    requireAgent(deps)(actor, 'getAgent', ref);

export interface AgentRef {
  organization: string;
  agent: string;
}

/** The agent `ref` names, after the operation's scope and the organization: 404 `No agent found` else. */
export const requireAgent =
  (deps: Deps) =>
  async (actor: Actor, operation: Operation, ref: AgentRef): Promise<Agent> => {
    const { organization } = await requireOrganization(deps)(actor, operation, ref.organization);
    const [agent] = isUuid(ref.agent) ? await deps.repos.lookups.agents([ref.agent.toLowerCase()]) : [];
    if (!agent || agent.organizationId !== organization.id) throw notFound('agent');
    return agent;
  };

/** These agents, in the order given, null for the unknown and those of organizations the actor may not use. */
export const getAgentsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<Agent | null>> => {
    requireScope(actor, 'getAgent');
    const wanted = distinctUuids(ids);
    const [agents, memberships] = await Promise.all([
      deps.repos.lookups.agents(wanted),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map(
      agents.filter((agent) => memberships.has(agent.organizationId)).map((agent) => [agent.id, agent]),
    );
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/**
 * An agent by its slug, `<organization>/<agent uuid>` (the public API's form), answered by `getAgent`,
 * so with its refusals; a slug of another shape answers `No agent found`.
 */
export const findAgent =
  (deps: Deps) =>
  async (actor: Actor, slug: string): Promise<Agent> => {
    const [organization, agent] = requireSlugParts(actor, 'getAgent', slug, {
      count: 2,
      resource: 'agent',
    }) as [string, string];
    return getAgent(deps)(actor, { organization, agent });
  };

/** What an agent is doing: whether it holds a job, and that job when the actor may see it. */
export interface AgentWork {
  isRunningJob: boolean;
  /** null also when the actor may not see the job (no `read_builds`, or a pipeline hidden from them) */
  job: JobResult | null;
  /** when it last finished a job */
  lastJobFinishedAt: Date | null;
}

/**
 * The work of each of these agents, in the order given (agents of organizations the actor may not use
 * do nothing, as far as it is told). The job is the REST job as the actor may see it, so a token
 * without `read_builds` or a member who may not see the pipeline learns only that the agent is busy.
 */
export const getWorkOfAgents =
  (deps: Deps) =>
  async (actor: Actor, agentIds: readonly string[]): Promise<AgentWork[]> => {
    const wanted = distinctUuids(agentIds);
    const [held, memberships] = await Promise.all([
      deps.repos.lookups.heldJobs(wanted),
      usableMemberships(deps, actor),
    ]);
    const heldBy = new Map(
      held.flatMap((entry) =>
        entry.held && memberships.has(entry.organizationId) ? [[entry.agentId, entry.held] as const] : [],
      ),
    );
    const lastFinished = new Map(
      held.flatMap((entry) =>
        memberships.has(entry.organizationId) ? [[entry.agentId, entry.lastJobFinishedAt] as const] : [],
      ),
    );
    const jobs = allowsOperation(actor, 'getBuild')
      ? await jobsInBuilds(deps, actor, [...heldBy.values()])
      : new Map<string, JobResult>();
    return agentIds.map((id) => {
      const job = heldBy.get(id.toLowerCase());
      return {
        isRunningJob: job !== undefined,
        job: job ? (jobs.get(job.jobId) ?? null) : null,
        lastJobFinishedAt: lastFinished.get(id.toLowerCase()) ?? null,
      };
    });
  };
