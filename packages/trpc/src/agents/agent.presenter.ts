import type { AgentView } from '@ci/application';
import { type Agent, encodeGraphqlId, formatTimestamp, type User, webAddresses } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import { presentJob } from '../builds/build.presenter';
import type { AgentWire } from '../builds/build.wire';
import { presentUser } from '../users/user.presenter';
import type { AgentResourceWire } from './agent.wire';

/** Public base URLs without a trailing slash. */
interface Urls {
  api: string;
  web: string;
}

/**
 * The agent as a job shows it (the recorded form, in every build answer): the keys every agent answer
 * starts with; in a job its own `job` and `last_job_finished_at` are null, as recorded (the agents
 * endpoints show them). `avatars` remembers avatar addresses across the users of one answer.
 */
export function presentJobAgent(input: {
  agent: Agent;
  creator: User | null;
  organizationSlug: string;
  urls: Urls;
  avatars?: Map<string, string>;
}): AgentWire {
  const { agent, creator, organizationSlug, urls, avatars } = input;
  return {
    id: agent.id,
    graphql_id: encodeGraphqlId('Agent', agent.id),
    url: apiAddresses.agent(urls.api, organizationSlug, agent.id),
    web_url: webAddresses.agent(urls.web, organizationSlug, agent.id),
    name: agent.name,
    connection_state: agent.connectionState,
    hostname: agent.hostname,
    ip_address: agent.ipAddress,
    user_agent: agent.userAgent,
    creator: creator ? presentUser(creator, avatars) : null,
    created_at: formatTimestamp(agent.createdAt),
    version: agent.version,
    job: null,
    last_job_finished_at: null,
    // No priorities yet: every agent is equal, as the recorded agents (0) are.
    priority: 0,
    meta_data: agent.tags,
  };
}

/**
 * An agent as the agents endpoints answer it, keys in the order of the recorded responses (`graphql_id`
 * and the pause added): its current job as builds show jobs, its tags as `meta_data`.
 */
export function presentAgent(
  view: AgentView,
  organizationSlug: string,
  urls: Urls,
  avatars = new Map<string, string>(),
): AgentResourceWire {
  const { agent, paused } = view;
  return {
    ...presentJobAgent({ agent, creator: view.creator, organizationSlug, urls, avatars }),
    job: view.job ? presentJob(view.job.build, view.job, urls) : null,
    last_job_finished_at: formatTimestamp(view.lastJobFinishedAt),
    // A pause that timed out is no pause: its times and note are not shown.
    paused,
    paused_at: paused ? formatTimestamp(agent.pausedAt) : null,
    paused_note: paused ? agent.pauseNote : null,
    paused_until: paused ? formatTimestamp(agent.pausedUntil) : null,
  };
}

export function presentAgents(
  views: readonly AgentView[],
  organizationSlug: string,
  urls: Urls,
): AgentResourceWire[] {
  const avatars = new Map<string, string>();
  return views.map((view) => presentAgent(view, organizationSlug, urls, avatars));
}
