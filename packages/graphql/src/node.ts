import { type GraphqlType, isGraphqlType } from '@ci/domain';
import { brandWithType } from '@pothos/core';
import type { GraphqlContext } from './builder';
import { JOB_TYPE_NAMES } from './job-kinds';
import type { JobNode } from './types/job-node';
import { PipelineNode } from './types/pipeline-node';

type NodeLoad = (id: string, ctx: GraphqlContext) => Promise<object | null> | object | null;

/** How `node` reads an object of each type: the use cases decide who sees what, as for REST. */
const NODES: Record<GraphqlType, NodeLoad> = {
  Organization: (id, ctx) => ctx.loaders.readableOrganizations.load(id),
  OrganizationMember: (id, ctx) => ctx.loaders.organizationMembers.load(id),
  Pipeline: async (id, ctx) => PipelineNode.of(await ctx.loaders.pipelines.load(id)),
  Team: (id, ctx) => ctx.loaders.teams.load(id),
  TeamMember: (id, ctx) => ctx.loaders.teamMembers.load(id),
  User: (id, ctx) => ctx.loaders.users.load(id),
  Viewer: (id, ctx) => (id === ctx.actor.user.id ? { viewer: ctx.actor.user } : null),
  Build: (id, ctx) => ctx.loaders.builds.load(id),
  Job: (id, ctx) => ctx.loaders.jobs.load(id),
  Registry: (id, ctx) => ctx.loaders.registries.load(id),
  Cluster: (id, ctx) => ctx.loaders.clusters.load(id),
  ClusterQueue: (id, ctx) => ctx.loaders.clusterQueues.load(id),
  ClusterToken: (id, ctx) => ctx.loaders.clusterTokens.load(id),
  TeamPipeline: (id, ctx) => ctx.loaders.teamPipelines.load(id),
  Agent: (id, ctx) => ctx.loaders.agents.load(id),
  AgentToken: (id, ctx) => ctx.loaders.agentTokens.load(id),
  Rule: (id, ctx) => ctx.loaders.rules.load(id),
  Annotation: (id, ctx) => ctx.loaders.annotations.load(id),
  PipelineTemplate: (id, ctx) => ctx.loaders.pipelineTemplates.load(id),
  Suite: (id, ctx) => ctx.loaders.suites.load(id),
  TeamSuite: (id, ctx) => ctx.loaders.teamSuites.load(id),
  OrganizationBanner: (id, ctx) => ctx.loaders.banners.load(id),
  OrganizationInvitation: (id, ctx) => ctx.loaders.invitations.load(id),
  Artifact: (id, ctx) => ctx.loaders.artifacts.load(id),
  // Not a Node in the public schema: read through `notificationService(uuid:)`.
  NotificationService: () => null,
  PipelineSchedule: (id, ctx) => ctx.loaders.pipelineSchedules.load(id),
};

/**
 * `node(id)` answers the object a REST `graphql_id` names, or null: for an id that is not one, names an
 * object that does not exist, or one the actor may not see; a Viewer id only for the token's own user.
 * The id tells the object's type, so the object is branded with it and `Node` resolves to that type
 * (a job's id says `Job`: its object type is the union member of its kind).
 */
export async function nodeById(
  { typename, id }: { typename: string; id: string },
  ctx: GraphqlContext,
): Promise<object | null> {
  if (!isGraphqlType(typename)) return null;
  const node = await NODES[typename](id, ctx);
  if (node) {
    const type = typename === 'Job' ? JOB_TYPE_NAMES[(node as JobNode).job.type] : typename;
    // A type's name is a brand Pothos resolves (its typing asks for the type's ref, which would import
    // the type modules into the builder's).
    brandWithType(node, type as never);
  }
  return node;
}
