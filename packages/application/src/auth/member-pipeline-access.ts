import { type PipelineAccess, pipelineAccess } from '@ci/domain';
import type { Deps, OrganizationAccess } from '../ports';

/**
 * What a member (not an admin) may do on each pipeline of these organizations, by pipeline id, as the
 * domain's access rule decides from what the user's teams give; pipelines the member cannot see are
 * left out. Admins see everything and need no such map.
 */
export async function memberPipelineAccess(
  deps: Deps,
  userId: string,
  memberships: readonly OrganizationAccess[],
): Promise<Map<string, PipelineAccess>> {
  const members = memberships.filter((membership) => membership.role !== 'admin');
  const access = new Map<string, PipelineAccess>();
  if (members.length === 0) return access;
  const entries = await deps.repos.access.pipelineAccessIn({
    userId,
    organizationIds: members.map((membership) => membership.organization.id),
  });
  for (const entry of entries) {
    const level = pipelineAccess({ role: 'member', ...entry });
    if (level !== 'none') access.set(entry.pipelineId, level);
  }
  return access;
}
