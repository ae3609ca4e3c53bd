import { SCOPES, type Scope } from '@ci/domain';
import { expect, it } from 'vitest';
import {
  AUTHENTICATION_REQUIRED,
  expectMessage,
  expectScopeHeaders,
  type Reply,
  UNKNOWN_TOKEN,
} from './answers';
import type { World } from './world';

type Caller = Pick<World, 'server' | 'users' | 'tokens' | 'token'>;

/** A case of a 404 "No organization found": the token, and the organization it asks for. */
export type OrganizationCase = [name: string, token: () => Promise<string>, organization: string];

/**
 * The refusals an operation shares with every other, declared as `it`s of the calling `describe` (the
 * decisions.md "Errors" and "Authorization model"): 401 to no token, a malformed, unknown, expired or
 * revoked one; with a `scope`, 403 to a token with every scope but that one, before the organization is
 * looked at; with an `organization` in the path, 404 "No organization found" to every caller who may not
 * use it, exactly as to one that does not exist. Every answer is checked for its body and its scope
 * headers. `send` makes the request with the token (null: none) for the organization's slug, checks
 * whatever a refusal must leave as it was, and returns the answer.
 */
export function itRefusesWhomItMust(options: {
  world: () => Caller;
  scope: Scope | null;
  /** whether the path names an organization, which the token must be allowed to use */
  organization: boolean;
  send: (token: string | null, organization: string) => Promise<Reply>;
  /** more callers for the 404 (of organizations only a suite's own world has) */
  organizationCases?: OrganizationCase[];
}) {
  const { scope, send } = options;

  it('answers 401 without a token, with a malformed one and with one that does not exist', async () => {
    for (const token of [null, 'nonsense', UNKNOWN_TOKEN, 'bkua_short']) {
      const response = await send(token, 'acme');
      expectMessage(response, 401, AUTHENTICATION_REQUIRED);
      expectScopeHeaders(response, scope, []);
    }
  });

  it('answers 401 to expired and revoked tokens', async () => {
    const world = options.world();
    const admin = world.server.useCases.admin;
    const expired = await world.token('admin', { expiresAt: new Date(Date.now() - 1) });
    const revoked = await admin.createAccessToken({ email: world.users.admin.email, scopes: 'all' });
    await admin.revokeAccessToken(revoked.token.id);
    for (const token of [expired, revoked.secret]) {
      const response = await send(token, 'acme');
      expectMessage(response, 401, AUTHENTICATION_REQUIRED);
      expectScopeHeaders(response, scope, []);
    }
  });

  if (scope) {
    it(`answers 403 to a token with every scope but ${scope}`, async () => {
      const scopes = SCOPES.filter((other) => other !== scope);
      const response = await send(await options.world().token('admin', { scopes }), 'acme');
      expectMessage(response, 403, `Your access token doesn't have the ${scope} scope`);
      expectScopeHeaders(response, scope, scopes);
    });

    it('answers 403 for the scope before looking at the organization', async () => {
      const world = options.world();
      for (const user of ['admin', 'outsider'] as const) {
        const token = await world.token(user, { scopes: ['read_builds'] });
        for (const organization of ['acme', 'nope']) {
          expectMessage(
            await send(token, organization),
            403,
            `Your access token doesn't have the ${scope} scope`,
          );
        }
      }
    });
  }

  if (options.organization) {
    const cases: OrganizationCase[] = [
      ['a user of another organization', async () => options.world().tokens.outsider, 'acme'],
      [
        'a token limited to another organization',
        () => options.world().token('admin', { organizations: ['other'] }),
        'acme',
      ],
      ['an organization that does not exist', async () => options.world().tokens.admin, 'nope'],
      ...(options.organizationCases ?? []),
    ];
    it.each(cases)('answers 404 "No organization found" to %s', async (_case, token, organization) => {
      const response = await send(await token(), organization);
      expectMessage(response, 404, 'No organization found');
      expectScopeHeaders(response, scope, SCOPES);
    });

    it('answers an organization the token may not use exactly as one that does not exist', async () => {
      const limited = await options.world().token('admin', { organizations: ['other'] });
      const hidden = await send(limited, 'acme');
      const missing = await send(limited, 'no-such-organization');
      expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
    });
  }
}
