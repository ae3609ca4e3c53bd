import { type Registry, registryNameTaken, validateRegistryInput } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import type { Deps } from '../ports';
import type { RegistryView } from './registry-view';

/**
 * Any member of the organization may create one with the scope (decisions.md is silent on roles). The
 * slug is unique per organization: the database decides, so concurrent creates of one name make one.
 */
export const createRegistry =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, body: unknown): Promise<RegistryView> => {
    const { organization } = await requireOrganization(deps)(actor, 'createRegistry', organizationSlug);
    const input = validateRegistryInput(body, { creating: true });
    if (!input.ok) throw input.error;
    const registry: Registry = {
      ...input.value,
      id: deps.newId(),
      organizationId: organization.id,
      emoji: null,
      color: null,
      public: false,
      oidcPolicy: null,
      createdAt: deps.clock.now(),
    };
    if ((await deps.repos.registries.insert(registry)) === 'slug_taken') throw registryNameTaken();
    return { registry, organizationSlug: organization.slug };
  };
