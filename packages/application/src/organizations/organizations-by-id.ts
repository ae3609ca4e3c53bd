import { badRequest, distinctUuids, notFound, type Organization } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { organizationsById, usableMemberships } from '../auth/usable-memberships';
import type { Deps, OrganizationMember } from '../ports';
import { getOrganization } from './get-organization';

/**
 * The organization use cases for a transport that names organizations and memberships by UUID
 * (GraphQL): the same rules as REST (`read_organizations`; only the user's organizations the token may
 * use), an organization of anyone else answering as one that does not exist.
 */

/** These organizations, in the order given, null for the unknown and those the actor may not use. */
export const getOrganizationsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<Organization | null>> => {
    requireScope(actor, 'getOrganization');
    return organizationsById(deps)(actor, ids);
  };

/**
 * An organization by `slug` (the REST get use case, with its refusals) or by `uuid`; neither or both
 * answers `Find an organization by either its slug or its uuid`.
 */
export const findOrganization =
  (deps: Deps) =>
  async (actor: Actor, key: { slug?: string | null; uuid?: string | null }): Promise<Organization> => {
    if (key.slug != null && key.uuid == null) return getOrganization(deps)(actor, key.slug);
    if (key.uuid != null && key.slug == null) {
      const [organization] = await getOrganizationsById(deps)(actor, [key.uuid]);
      if (!organization) throw notFound('organization');
      return organization;
    }
    throw badRequest('organization_key', 'Find an organization by either its slug or its uuid');
  };

/**
 * These memberships, in the order given, null for the unknown and those of organizations the actor may
 * not use: whoever may list an organization's members may see each of them (`read_organizations`).
 */
export const getOrganizationMembersById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<OrganizationMember | null>> => {
    requireScope(actor, 'listOrganizationMembers');
    const wanted = distinctUuids(ids);
    const [members, usable] = await Promise.all([
      deps.repos.lookups.organizationMembers(wanted),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map(
      members.filter((member) => usable.has(member.organizationId)).map((member) => [member.id, member]),
    );
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };
