import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { presentUser } from './user.presenter';
import { UserWire } from './user.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
const example = JSON.parse(readFileSync(`${EXAMPLES}/user-get.json`, 'utf8')) as Record<string, unknown>;

const user: User = {
  id: '0190f3a0-3333-7abc-8def-0123456789ab',
  name: 'Ada Lovelace',
  email: '  Ada@Example.COM ',
  avatarUrl: null,
  createdAt: new Date('2025-01-02T03:04:05.006Z'),
};
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('presentUser', () => {
  it('has the keys of user-get.json, in its order', () => {
    expect(Object.keys(presentUser(user))).toEqual(Object.keys(example));
  });

  it('shows id, name, email and created_at (ISO 8601 with ms and Z) as stored', () => {
    expect(presentUser(user)).toMatchObject({
      id: user.id,
      name: 'Ada Lovelace',
      email: '  Ada@Example.COM ',
      created_at: '2025-01-02T03:04:05.006Z',
    });
  });

  it('encodes graphql_id as base64 of User---<id>', () => {
    const { graphql_id } = presentUser(user);
    expect(Buffer.from(graphql_id, 'base64').toString('utf8')).toBe(`User---${user.id}`);
  });

  it("falls back to Gravatar's address for the trimmed, lowercased email", () => {
    expect(presentUser(user).avatar_url).toBe(`https://www.gravatar.com/avatar/${md5('ada@example.com')}`);
  });

  it("shows the user's own picture when there is one", () => {
    const avatarUrl = 'https://avatars.example.com/ada.png';
    expect(presentUser({ ...user, avatarUrl }).avatar_url).toBe(avatarUrl);
  });

  it('gives what the wire schema accepts', () => {
    expect(UserWire.parse(presentUser(user))).toEqual(presentUser(user));
  });
});

describe('presentUser with an avatar cache', () => {
  it('remembers avatars by user in the cache it is given, and answers the same with or without one', () => {
    const cache = new Map<string, string>();
    const url = presentUser(user, cache).avatar_url;
    expect(cache.get(user.id)).toBe(url);
    expect(presentUser(user).avatar_url).toBe(url);
    cache.set(user.id, 'cached');
    expect(presentUser(user, cache).avatar_url).toBe('cached');
  });
});
