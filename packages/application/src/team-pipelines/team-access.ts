import {
  canManageTeamPipelines,
  forbidden,
  isUuid,
  notFound,
  type Operation,
  type Organization,
  type Team,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import type { Deps, OrganizationAccess, TeamPipelineView } from '../ports';

/** A team addressed as the REST paths do: organization slug and team UUID. */
export interface TeamRef {
  organization: string;
  team: string;
}

/** One association: the team's and the pipeline's UUIDs. */
export interface TeamPipelineRef extends TeamRef {
  pipeline: string;
}

/** An association as the wire shows it: with its pipeline's and its organization's slugs, and its team. */
export interface TeamPipelineResult extends TeamPipelineView {
  organizationSlug: string;
  organization: Organization;
  team: Team;
}

export interface AuthorizedTeam extends OrganizationAccess {
  team: Team;
}

/**
 * Scope (403), organization (404), then for changes the role (403 `Forbidden`: only admins), then the
 * team (404 `No team found`, also for anything that is not a UUID).
 */
export const requireTeam =
  (deps: Deps) =>
  async (
    actor: Actor,
    operation: Operation,
    ref: TeamRef,
    intent: 'read' | 'manage',
  ): Promise<AuthorizedTeam> => {
    const membership = await requireOrganization(deps)(actor, operation, ref.organization);
    if (intent === 'manage' && !canManageTeamPipelines(membership.role)) throw forbidden();
    const team = isUuid(ref.team)
      ? await deps.repos.teams.findById(membership.organization.id, ref.team.toLowerCase())
      : null;
    if (!team) throw notFound('team');
    return { ...membership, team };
  };

/**
 * The pipelines whose associations the actor may read: every one for an admin (null), else those the
 * domain's access rule lets the member see, so that no answer names a pipeline the member cannot see.
 */
export async function visiblePipelineIds(
  deps: Deps,
  actor: Actor,
  membership: OrganizationAccess,
): Promise<string[] | null> {
  if (membership.role === 'admin') return null;
  return [...(await memberPipelineAccess(deps, actor.user.id, [membership])).keys()];
}

/** The path's pipeline UUID, lowercase; anything else answers like an association that does not exist. */
export function pipelineKey(pipeline: string): string {
  if (!isUuid(pipeline)) throw notFound('pipeline');
  return pipeline.toLowerCase();
}

export function asResult(target: AuthorizedTeam, view: TeamPipelineView): TeamPipelineResult {
  return {
    ...view,
    organizationSlug: target.organization.slug,
    organization: target.organization,
    team: target.team,
  };
}
