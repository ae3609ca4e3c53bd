import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AccessTokenView } from '@ci/application';
import { describe, expect, it } from 'vitest';
import { presentAccessToken } from './access-token.presenter';
import { AccessTokenWire } from './access-token.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const example = JSON.parse(readFileSync(`${EXAMPLES}/access-token.json`, 'utf8')) as Json;

const HASH = 'ab'.repeat(32);
const view: AccessTokenView = {
  token: {
    id: 'b63254c0-3271-4a98-8270-7cfbd6c2f14e',
    userId: '0190f3a0-3333-7abc-8def-0123456789ab',
    tokenHash: HASH,
    scopes: ['read_builds', 'read_user'],
    organizationIds: ['0190f3a0-2222-7abc-8def-0123456789ab'],
    description: 'Development Token',
    createdAt: new Date('2025-07-16T06:07:42.000Z'),
    expiresAt: new Date('2025-07-23T06:07:42.123Z'),
    revokedAt: null,
  },
  user: {
    id: '0190f3a0-3333-7abc-8def-0123456789ab',
    name: 'Algernon Moncrieff',
    email: 'algernon.m@buildkite.com',
    avatarUrl: null,
    createdAt: new Date(0),
  },
};

describe('presentAccessToken', () => {
  it('has the keys of access-token.json, in its order, and those of its user', () => {
    const presented = presentAccessToken(view);
    expect(Object.keys(presented)).toEqual(Object.keys(example));
    expect(Object.keys(presented.user)).toEqual(Object.keys(example.user as Json));
  });

  it("matches the example's values, timestamps in ISO 8601 with ms and Z (decisions.md)", () => {
    expect(presentAccessToken(view)).toEqual({
      uuid: example.uuid,
      scopes: ['read_builds', 'read_user'],
      description: example.description,
      created_at: '2025-07-16T06:07:42.000Z',
      expires_at: '2025-07-23T06:07:42.123Z',
      user: example.user,
    });
  });

  it('shows a token that never expires with expires_at null, and one without description with null', () => {
    const presented = presentAccessToken({
      ...view,
      token: { ...view.token, expiresAt: null, description: null },
    });
    expect(presented.expires_at).toBeNull();
    expect(presented.description).toBeNull();
  });

  it('never shows the hash, the organizations or the user id', () => {
    const text = JSON.stringify(presentAccessToken(view));
    expect(text).not.toContain(HASH);
    expect(text).not.toContain(view.user.id);
    expect(text).not.toContain('0190f3a0-2222');
  });

  it('gives what the wire schema accepts', () => {
    const presented = presentAccessToken(view);
    expect(AccessTokenWire.parse(presented)).toEqual(presented);
  });
});
