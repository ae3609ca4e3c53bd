import { badRequest, distinctUuids, notFound, type Organization } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope, requireSlugParts } from '../auth/authorize';
import { usableById, usableMemberships } from '../auth/usable-memberships';
import type { Deps } from '../ports';
import { createRegistry } from './create-registry';
import { deleteRegistry } from './delete-registry';
import { getRegistry } from './get-registry';
import type { RegistryRef, RegistryView } from './registry-view';
import { updateRegistry } from './update-registry';

/**
 * The registry use cases for a transport that names registries and organizations by UUID (GraphQL):
 * the same rules as REST, whose use cases the changes call once they know the REST address. A registry
 * of an organization the actor may not use answers as one that does not exist.
 */

/** These registries, in the order given, null for the unknown and those of other organizations. */
export const getRegistriesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<RegistryView | null>> => {
    requireScope(actor, 'getRegistry');
    const wanted = distinctUuids(ids);
    const [registries, memberships] = await Promise.all([
      deps.repos.lookups.registries(wanted),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map<string, RegistryView>();
    for (const registry of registries) {
      const membership = memberships.get(registry.organizationId);
      if (membership) visible.set(registry.id, { registry, organizationSlug: membership.organization.slug });
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/**
 * A registry by `uuid`, or by `slug` (`<organization>/<registry>`, answered by the REST get-registry use
 * case, so with its refusals). A slug of another shape answers `No registry found`.
 */
export const findRegistry =
  (deps: Deps) =>
  async (actor: Actor, key: { slug?: string | null; uuid?: string | null }): Promise<RegistryView> => {
    if (key.uuid != null && key.slug == null) {
      const [registry] = await getRegistriesById(deps)(actor, [key.uuid]);
      if (!registry) throw notFound('registry');
      return registry;
    }
    if (key.slug != null && key.uuid == null) {
      const [organization, registry] = requireSlugParts(actor, 'getRegistry', key.slug, {
        count: 2,
        resource: 'registry',
      }) as [string, string];
      return getRegistry(deps)(actor, { organization, registry });
    }
    throw badRequest('registry_key', 'Find a registry by either its slug or its uuid');
  };

/** The REST address of a registry the actor's organizations hold, with its organization. */
async function addressRegistry(
  deps: Deps,
  actor: Actor,
  registryId: string | null,
): Promise<{ ref: RegistryRef; organization: Organization }> {
  const { found: registry, membership } = await usableById(deps, actor, {
    id: registryId,
    read: (id) => deps.repos.lookups.registries([id]),
    organizationOf: (found) => found.organizationId,
    resource: 'registry',
  });
  return {
    ref: { organization: membership.organization.slug, registry: registry.slug },
    organization: membership.organization,
  };
}

/** Creates a registry in the organization with this UUID from a REST create body. */
export const createRegistryInOrganizationId =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null, body: unknown): Promise<RegistryView> => {
    requireScope(actor, 'createRegistry');
    const memberships = await usableMemberships(deps, actor);
    const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
    if (!membership) throw notFound('organization');
    return createRegistry(deps)(actor, membership.organization.slug, body);
  };

/** Changes the registry with this UUID from a REST update body. */
export const updateRegistryById =
  (deps: Deps) =>
  async (actor: Actor, registryId: string | null, body: unknown): Promise<RegistryView> => {
    requireScope(actor, 'updateRegistry');
    const { ref } = await addressRegistry(deps, actor, registryId);
    return updateRegistry(deps)(actor, ref, body);
  };

/** Deletes the registry with this UUID; returns the organization it belonged to. */
export const deleteRegistryById =
  (deps: Deps) =>
  async (actor: Actor, registryId: string | null): Promise<{ organization: Organization }> => {
    requireScope(actor, 'deleteRegistry');
    const { ref, organization } = await addressRegistry(deps, actor, registryId);
    await deleteRegistry(deps)(actor, ref);
    return { organization };
  };
