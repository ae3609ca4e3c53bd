import type { Organization } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import type { Deps } from '../ports';

/** One organization of the user that the token may use; any other answers 404 `No organization found`. */
export const getOrganization =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string): Promise<Organization> => {
    const { organization } = await requireOrganization(deps)(actor, 'getOrganization', organizationSlug);
    return organization;
  };
