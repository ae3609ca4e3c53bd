import { type AccessToken, notFound, SCOPES, type Scope } from '@ci/domain';
import { generateAccessTokenSecret, hashAccessTokenSecret } from '../auth/access-token-secret';
import type { Deps } from '../ports';
import { findOrganization, findUser } from './organizations';

export const createAccessToken =
  (deps: Deps) =>
  async (input: {
    email: string;
    scopes: Scope[] | 'all';
    organizations?: string[];
    expiresAt?: Date | null;
    description?: string | null;
  }): Promise<{ token: AccessToken; secret: string }> => {
    const user = await findUser(deps)(input.email);
    const organizationIds = input.organizations
      ? await Promise.all(input.organizations.map(async (slug) => (await findOrganization(deps)(slug)).id))
      : null;
    const secret = generateAccessTokenSecret();
    const token: AccessToken = {
      id: deps.newId(),
      userId: user.id,
      tokenHash: hashAccessTokenSecret(secret),
      scopes: input.scopes === 'all' ? [...SCOPES] : [...new Set(input.scopes)],
      organizationIds,
      description: input.description ?? null,
      createdAt: deps.clock.now(),
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    await deps.repos.accessTokens.insert(token);
    return { token, secret };
  };

export const revokeAccessToken = (deps: Deps) => async (id: string) => {
  if (!(await deps.repos.accessTokens.revoke(id, deps.clock.now()))) throw notFound('access_token');
  return { id, revoked: true };
};
