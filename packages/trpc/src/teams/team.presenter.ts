import type { TeamMemberView, TeamView } from '@ci/application';
import { encodeGraphqlId, formatTimestamp } from '@ci/domain';
import { presentUser } from '../users/user.presenter';
import type { TeamMemberWire, TeamWire } from './team.wire';

/**
 * The wire form of a team (REST and tRPC), keys in the order of the public API's example. A team
 * without a description shows `""`, as the example does.
 */
export function presentTeam(
  { team, createdBy }: TeamView,
  avatars: Map<string, string> = new Map(),
): TeamWire {
  return {
    id: team.id,
    graphql_id: encodeGraphqlId('Team', team.id),
    name: team.name,
    slug: team.slug,
    description: team.description ?? '',
    created_at: formatTimestamp(team.createdAt),
    privacy: team.privacy,
    default: team.isDefaultTeam,
    created_by: createdBy ? presentUser(createdBy, avatars) : null,
  };
}

export function presentTeams(views: readonly TeamView[]): TeamWire[] {
  const avatars = new Map<string, string>();
  return views.map((view) => presentTeam(view, avatars));
}

export function presentTeamMember({ member, userName }: TeamMemberView): TeamMemberWire {
  return {
    role: member.role,
    created_at: formatTimestamp(member.createdAt),
    user_id: member.userId,
    user_name: userName,
  };
}

export function presentTeamMembers(views: readonly TeamMemberView[]): TeamMemberWire[] {
  return views.map(presentTeamMember);
}
