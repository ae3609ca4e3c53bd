import { notFound, registryNameTaken, validateRegistryInput } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireComparable, requireOrganization } from '../auth/authorize';
import type { Deps } from '../ports';
import type { RegistryRef, RegistryView } from './registry-view';

/**
 * Changes the name (and with it the slug) and the description; the ecosystem is fixed at creation and
 * ignored. A new name whose slug another registry of the organization has is refused like on create.
 */
export const updateRegistry =
  (deps: Deps) =>
  async (actor: Actor, ref: RegistryRef, body: unknown): Promise<RegistryView> => {
    const { organization } = await requireOrganization(deps)(actor, 'updateRegistry', ref.organization);
    requireComparable(ref.registry, 'registry');
    const current = await deps.repos.registries.findBySlug(organization.id, ref.registry);
    if (!current) throw notFound('registry');
    const changes = validateRegistryInput(body, { creating: false });
    if (!changes.ok) throw changes.error;
    const updated = Object.keys(changes.value).length
      ? await deps.repos.registries.update({ id: current.id, changes: changes.value })
      : current;
    if (updated === 'slug_taken') throw registryNameTaken();
    // Deleted between the read and the write.
    if (updated === 'not_found') throw notFound('registry');
    return { registry: updated, organizationSlug: organization.slug };
  };
