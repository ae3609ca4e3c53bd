import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../../test/support/database';

let db: TestDatabase;
const statements: string[] = [];
let ada: string;
let bob: string;
let acme: string;
let other: string;

beforeAll(async () => {
  db = await freshDatabase({ onQuery: (sql) => statements.push(sql) });
  const admin = db.useCases.admin;
  acme = (await admin.createOrganization({ name: 'Acme', slug: 'acme' })).id;
  other = (await admin.createOrganization({ name: 'Other', slug: 'other' })).id;
  ada = (await admin.createUser({ name: 'Ada', email: 'ada@acme.test' })).id;
  bob = (await admin.createUser({ name: 'Bob', email: 'bob@acme.test' })).id;
  await admin.addMember({ organization: 'acme', email: 'ada@acme.test', role: 'member' });
  await admin.addMember({ organization: 'acme', email: 'bob@acme.test', role: 'admin' });
  await admin.addMember({ organization: 'other', email: 'ada@acme.test', role: 'member' });
});

afterAll(async () => {
  await db?.close();
});

const rows = () =>
  db.database.sql.query<{ window_start: string; subject_kind: string; subject_id: string; requests: number }>(
    'select * from rate_limit_windows order by window_start, subject_kind, subject_id',
  );

const window = (minute: number) => new Date(Date.UTC(2026, 10, 21, 10, minute));

describe('the rate-limit repository', () => {
  const repo = () => db.database.repos.rateLimits;

  it('counts the user and the organization in one statement', async () => {
    statements.length = 0;
    const counts = await repo().count({
      windowStart: window(0),
      userId: ada,
      organizationSlug: 'acme',
      organizationIds: null,
    });
    expect(counts).toEqual({ organization: 1, user: 1 });
    expect(statements).toHaveLength(1);
    const again = await repo().count({
      windowStart: window(0),
      userId: ada,
      organizationSlug: null,
      organizationIds: null,
    });
    expect(again).toEqual({ organization: null, user: 2 });
  });

  it('keeps each user, organization and window apart', async () => {
    const count = (userId: string, slug: string | null, minute = 1) =>
      repo().count({ windowStart: window(minute), userId, organizationSlug: slug, organizationIds: null });
    expect(await count(ada, 'acme')).toEqual({ organization: 1, user: 1 });
    expect(await count(bob, 'acme')).toEqual({ organization: 2, user: 1 });
    expect(await count(ada, 'other')).toEqual({ organization: 1, user: 2 });
    expect(await count(ada, 'acme', 2)).toEqual({ organization: 1, user: 1 });
  });

  it('counts no organization for a slug that does not exist, one the user is not in, or one the token may not use', async () => {
    const before = (await rows()).length;
    const count = (userId: string, slug: string, organizationIds: string[] | null = null) =>
      repo().count({ windowStart: window(3), userId, organizationSlug: slug, organizationIds });
    expect((await count(ada, 'no-such-org')).organization).toBeNull();
    expect((await count(bob, 'other')).organization).toBeNull();
    expect((await count(ada, 'acme', [other])).organization).toBeNull();
    expect((await count(ada, 'acme', [acme])).organization).toBe(1);
    // Only Ada's and Bob's user counters and Acme's were added: junk slugs leave nothing behind.
    const added = (await rows()).slice(before).length;
    expect(added).toBe(3);
  });

  it('counts concurrent requests exactly once each, across connections', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        repo().count({
          windowStart: window(4),
          userId: i % 2 ? ada : bob,
          organizationSlug: 'acme',
          organizationIds: null,
        }),
      ),
    );
    const organizationCounts = results.map((result) => result.organization).sort((a, b) => a! - b!);
    expect(organizationCounts).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const adaCounts = results.filter((_, i) => i % 2).map((result) => result.user);
    expect(adaCounts.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('forgets the windows that started before a given time', async () => {
    await repo().deleteWindowsBefore(window(3));
    const left = await rows();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((row) => new Date(row.window_start).getTime() >= window(3).getTime())).toBe(true);
  });

  it('keeps the counters in an unlogged table', async () => {
    const [table] = await db.database.sql.query<{ relpersistence: string }>(
      "select relpersistence from pg_class where relname = 'rate_limit_windows'",
    );
    expect(table?.relpersistence).toBe('u');
  });
});
