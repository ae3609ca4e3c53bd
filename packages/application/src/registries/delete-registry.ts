import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireComparable, requireOrganization } from '../auth/authorize';
import type { Deps } from '../ports';
import type { RegistryRef } from './registry-view';

export const deleteRegistry =
  (deps: Deps) =>
  async (actor: Actor, ref: RegistryRef): Promise<void> => {
    const { organization } = await requireOrganization(deps)(actor, 'deleteRegistry', ref.organization);
    requireComparable(ref.registry, 'registry');
    if (!(await deps.repos.registries.delete(organization.id, ref.registry))) throw notFound('registry');
  };
