import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireComparable, requireOrganization } from '../auth/authorize';
import type { Deps } from '../ports';
import type { RegistryRef, RegistryView } from './registry-view';

export const getRegistry =
  (deps: Deps) =>
  async (actor: Actor, ref: RegistryRef): Promise<RegistryView> => {
    const { organization } = await requireOrganization(deps)(actor, 'getRegistry', ref.organization);
    requireComparable(ref.registry, 'registry');
    const registry = await deps.repos.registries.findBySlug(organization.id, ref.registry);
    if (!registry) throw notFound('registry');
    return { registry, organizationSlug: organization.slug };
  };
