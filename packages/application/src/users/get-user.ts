import type { User } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import type { Deps } from '../ports';

/** The token's user, as authentication read it for this request. */
export const getUser =
  (_deps: Deps) =>
  async (actor: Actor): Promise<User> => {
    requireScope(actor, 'getUser');
    return actor.user;
  };
