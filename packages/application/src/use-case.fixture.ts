import {
  type AccessToken,
  ORGANIZATION_SETTINGS_DEFAULTS,
  type Organization,
  type Scope,
  type User,
} from '@ci/domain';
import { hashAccessTokenSecret } from './auth/access-token-secret';
import type { Actor } from './auth/actor';

/** What the use cases' unit tests share: two organizations, numbered UUIDs, and the caller. */

export const ACME: Organization = {
  id: 'org-acme',
  slug: 'acme',
  name: 'Acme',
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};
export const OTHER: Organization = {
  id: 'org-other',
  slug: 'other',
  name: 'Other',
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};

/** A lowercase UUID numbered `n`, so tests can name objects by number. */
export const uuid = (n: number) => `0190f3a0-0000-7abc-8def-${String(n).padStart(12, '0')}`;

/**
 * User `u` calling with a token of these scopes, allowed these organizations (null: every organization
 * the user belongs to).
 */
export function actorWith(scopes: readonly Scope[], organizationIds: readonly string[] | null = null): Actor {
  return {
    tokenId: 't',
    user: { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
    scopes,
    organizationIds,
  };
}

export const ADA: User = {
  id: 'u-1',
  name: 'Ada',
  email: 'ada@example.com',
  avatarUrl: null,
  createdAt: new Date(0),
};

/** Ada's access token whose secret is `secret`, with `overrides`. */
export function tokenOf(secret: string, overrides: Partial<AccessToken> = {}): AccessToken {
  return {
    id: 't-1',
    userId: ADA.id,
    tokenHash: hashAccessTokenSecret(secret),
    scopes: ['read_builds'],
    organizationIds: null,
    description: null,
    createdAt: new Date(0),
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}
