import type { GraphqlContext } from './builder';
import { JOB_TYPE_NAMES } from './job-kinds';

/**
 * `node(id)` answers the object a REST `graphql_id` names, or null: for an id that is not one, names an
 * object that does not exist, or one the actor may not see (the use cases decide, as for REST); a
 * Viewer id only for the token's own user.
 */
export function nodeById(
  id: { typename: string; id: string },
  ctx: GraphqlContext,
): Promise<unknown> | unknown | null {
  switch (id.typename) {
    case 'Organization':
      return ctx.loaders.readableOrganizations.load(id.id);
    case 'OrganizationMember':
      return ctx.loaders.organizationMembers.load(id.id);
    case 'Pipeline':
      return ctx.loaders.pipelines.load(id.id);
    case 'Team':
      return ctx.loaders.teams.load(id.id);
    case 'TeamMember':
      return ctx.loaders.teamMembers.load(id.id);
    case 'User':
      return ctx.loaders.users.load(id.id);
    case 'Viewer':
      return id.id === ctx.actor.user.id ? { viewer: ctx.actor.user } : null;
    case 'Build':
      return ctx.loaders.builds.load(id.id);
    case 'Job':
      return ctx.loaders.jobs.load(id.id);
    case 'Registry':
      return ctx.loaders.registries.load(id.id);
    case 'TeamPipeline':
      return ctx.loaders.teamPipelines.load(id.id);
    case 'Agent':
      return ctx.loaders.agents.load(id.id);
    default:
      return null;
  }
}

/** The object type of a value `node` (or any field typed `Node`) returns, from the use case's shape. */
export function nodeTypeName(value: unknown): string {
  const shape = value as Record<string, unknown>;
  if ('viewer' in shape) return 'Viewer';
  if ('member' in shape && 'team' in shape) return 'TeamMember';
  if ('role' in shape && 'user' in shape && 'organizationId' in shape) return 'OrganizationMember';
  if ('teamPipeline' in shape) return 'TeamPipeline';
  if ('registry' in shape) return 'Registry';
  if ('job' in shape && 'build' in shape) {
    return JOB_TYPE_NAMES[(shape.job as { type: keyof typeof JOB_TYPE_NAMES }).type];
  }
  if ('view' in shape && 'showWebhookUrl' in shape) return 'Build';
  if ('pipeline' in shape && 'organizationSlug' in shape) return 'Pipeline';
  if ('connectionState' in shape) return 'Agent';
  if ('privacy' in shape) return 'Team';
  if ('email' in shape) return 'User';
  if ('slug' in shape && 'name' in shape) return 'Organization';
  throw new Error('A node of no known type');
}
