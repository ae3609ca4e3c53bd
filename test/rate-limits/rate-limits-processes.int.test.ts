import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database';
import { type ServerProcess, startServerProcesses } from '../support/server-process';

/**
 * Two real server processes on one database: the counters live in PostgreSQL, so the limits hold
 * across them. The processes use the real clock, so each test first makes sure that enough of the
 * current minute is left for its requests (the window boundary would otherwise restart the counts).
 */
const LIMIT = 200;
const SECONDS_NEEDED = 15;

let servers: ServerProcess[] = [];
const tokens: Record<'ada' | 'bob', string> = { ada: '', bob: '' };

/** The cast, made in the database both processes share: two organizations, each with its admin. */
async function castIn() {
  const db = await freshDatabase();
  try {
    const admin = db.useCases.admin;
    for (const [slug, user] of [
      ['acme', 'ada'],
      ['globex', 'bob'],
    ] as const) {
      await admin.createOrganization({ name: slug, slug });
      const created = await admin.createUser({ name: user, email: `${user}@${slug}.test` });
      await admin.addMember({ organization: slug, email: created.email, role: 'admin' });
      tokens[user] = (await admin.createAccessToken({ email: created.email, scopes: 'all' })).secret;
    }
    return db.url;
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  const url = await castIn();
  servers = await startServerProcesses(2, {
    DATABASE_URL: url,
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_ORGANIZATION_PER_MINUTE: String(LIMIT),
    RATE_LIMIT_USER_PER_MINUTE: '10000',
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** Waits for the next minute when less than `SECONDS_NEEDED` of this one is left. */
async function enoughOfTheMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < SECONDS_NEEDED * 1000) await new Promise((resolve) => setTimeout(resolve, left + 250));
}

async function list(server: ServerProcess, organization: string, token: string) {
  const response = await fetch(`${server.baseUrl}/v2/packages/organizations/${organization}/registries`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the body as the untyped JSON a client sees
  const body: any = await response.json();
  return { status: response.status, headers: response.headers, body };
}

describe('rate limits across server processes', () => {
  it('count the requests of both processes together: the 201st of the minute is refused, whichever answers it', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    await enoughOfTheMinute();
    for (let i = 1; i <= LIMIT; i++) {
      const response = await list(i % 2 ? first : second, 'acme', tokens.ada);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i));
    }
    for (const server of [first, second]) {
      const refused = await list(server, 'acme', tokens.ada);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ scope: 'rest', limit: LIMIT });
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.reset);
    }
  });

  it('let exactly the limit through when both processes take requests at once', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    await enoughOfTheMinute();
    const extra = 20;
    const responses: Array<Awaited<ReturnType<typeof list>>> = [];
    // Twenty at a time, alternating processes: concurrent, without flooding a two-core machine.
    for (let batch = 0; batch < (LIMIT + extra) / 20; batch++) {
      responses.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, i) => list(i % 2 ? first : second, 'globex', tokens.bob)),
        )),
      );
    }
    const passed = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    expect(passed).toHaveLength(LIMIT);
    expect(refused).toHaveLength(extra);
    // Every count from 1 to the limit was handed out once: no two requests saw the same counter.
    const remaining = passed.map((response) => Number(response.headers.get('ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    expect(refused.map((response) => response.body.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: extra }, (_, i) => LIMIT + 1 + i),
    );
  });
});
