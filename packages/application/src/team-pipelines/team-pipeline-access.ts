import {
  canChangeTeamPipeline,
  type DomainError,
  forbidden,
  isUuid,
  notFound,
  type Organization,
  type Team,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import type { Deps, OrganizationAccess, TeamPipelineView } from '../ports';
import type { AuthorizedTeam, TeamRef } from '../teams/team-access';

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

/**
 * After `requireTeam(…, 'manage')`: may the actor change what the team may do on this pipeline? An
 * admin may; a maintainer only on a pipeline they may edit themselves (the domain's
 * `canChangeTeamPipeline`). A pipeline the maintainer cannot see answers `unseen` (what the operation
 * says of a pipeline that does not exist), one they see but may not edit 403 `Forbidden`.
 */
export async function requireChangeablePipeline(
  deps: Deps,
  actor: Actor,
  target: AuthorizedTeam,
  pipelineId: string,
  unseen: () => DomainError,
): Promise<void> {
  if (target.role === 'admin') return;
  const access = (await memberPipelineAccess(deps, actor.user.id, [target])).get(pipelineId) ?? 'none';
  if (access === 'none') throw unseen();
  if (!canChangeTeamPipeline(target.viewer, access)) throw forbidden();
}

/** The path's pipeline UUID, lowercase; anything else answers like an association that does not exist. */
export function pipelineKey(pipeline: string): string {
  if (!isUuid(pipeline)) throw notFound('pipeline');
  return pipeline.toLowerCase();
}

export function asResult(
  target: Pick<AuthorizedTeam, 'organization' | 'team'>,
  view: TeamPipelineView,
): TeamPipelineResult {
  return {
    ...view,
    organizationSlug: target.organization.slug,
    organization: target.organization,
    team: target.team,
  };
}
