import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeWithAdmin, freshDatabase, type TestDatabase } from '../support/database';
import { type ServerProcess, startServerProcesses } from '../support/server-process';
import { waitFor } from '../support/wait-for';

/**
 * Builds made exactly once across two server processes over one database: concurrent creates numbered
 * each once, and a due pipeline schedule given one build per tick whichever process claims it (ADR 0024).
 * Both processes tick the schedules every 100 ms.
 */

const PER_PROCESS = 64;
const PIPELINE = '/v2/organizations/acme/pipelines/web/builds';

let servers: ServerProcess[] = [];
let token: string;
let db: TestDatabase;

/** The cast, made in the database both processes will share: one admin, two pipelines, one token. */
async function castIn() {
  db = await freshDatabase();
  const acme = await acmeWithAdmin(db.useCases);
  for (const name of ['web', 'nightly']) {
    await db.useCases.admin.createPipeline({
      organization: 'acme',
      name,
      repository: `git@example.com:acme/${name}.git`,
      steps: 'steps:\n  - label: build\n    command: make build\n',
    });
  }
  return { url: db.url, token: await acme.token() };
}

beforeAll(async () => {
  const cast = await castIn();
  token = cast.token;
  servers = await startServerProcesses(2, {
    DATABASE_URL: cast.url,
    PUBLIC_API_URL: 'https://api.ci.test',
    SCHEDULE_TICK_MS: '100',
    WORKER_POLL_MS: '100',
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.close();
});

const auth = () => ({ Authorization: `Bearer ${token}` });

async function createBuild(server: ServerProcess, index: number) {
  const response = await fetch(`${server.baseUrl}${PIPELINE}`, {
    method: 'POST',
    headers: { ...auth(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ commit: 'a'.repeat(40), branch: 'main', message: `build ${index}` }),
  });
  const text = await response.text();
  return { status: response.status, text, number: response.status === 201 ? JSON.parse(text).number : null };
}

/** Every build of the pipeline through the REST list, following `Link: rel="next"` page by page. */
async function listAll(server: ServerProcess): Promise<number[]> {
  const numbers: number[] = [];
  let url: string | null = `${server.baseUrl}${PIPELINE}?per_page=100`;
  for (let pages = 0; url; pages++) {
    if (pages > 10) throw new Error('too many pages');
    const response: Response = await fetch(url, { headers: auth() });
    expect(response.status).toBe(200);
    const builds = (await response.json()) as Array<{ number: number }>;
    numbers.push(...builds.map((build) => build.number));
    const next: string | undefined = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    // Links carry the public URL; the request goes to the same path on this process.
    url = next ? `${server.baseUrl}${new URL(next).pathname}${new URL(next).search}` : null;
  }
  return numbers;
}

describe('build numbers across server processes', () => {
  it('gives 128 concurrent creates from two processes on one pipeline the numbers 1 to 128, each once', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const responses = await Promise.all(
      [first, second].flatMap((server) =>
        Array.from({ length: PER_PROCESS }, (_, index) => createBuild(server, index)),
      ),
    );

    const refused = responses.filter((response) => response.status !== 201);
    expect(refused, refused[0]?.text).toEqual([]);
    const numbers = responses.map((response) => response.number as number).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(2 * PER_PROCESS);
    expect(numbers).toEqual(Array.from({ length: 2 * PER_PROCESS }, (_, index) => index + 1));

    const listed = await listAll(first);
    expect(listed).toHaveLength(2 * PER_PROCESS);
    expect([...listed].sort((a, b) => a - b)).toEqual(numbers);
  });
});

describe('a due pipeline schedule across server processes', () => {
  const SCHEDULES = '/v2/organizations/acme/pipelines/nightly/schedules';
  const call = (server: ServerProcess, method: string, path: string, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { ...auth(), 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const scheduledBuilds = async () => {
    const [row] = await db.database.sql.query<{ count: number }>(
      `select count(*)::int as count from builds b join pipeline_schedule_builds s on s.build_id = b.id
       where b.source = 'schedule'`,
    );
    return row?.count ?? 0;
  };

  // The cronline is yearly, so no tick comes due by the clock during the test: each is one the test makes due.
  it('gets exactly one build per tick', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const created = await call(first, 'POST', SCHEDULES, { label: 'Yearly', cronline: '0 0 1 1 *' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (let tick = 1; tick <= 3; tick++) {
      await db.database.sql.query(
        `update pipeline_schedules set next_build_at = now() - interval '1 hour' where id = $1`,
        [id],
      );
      await waitFor(
        `tick ${tick} claimed`,
        async () => {
          const [row] = await db.database.sql.query<{ due: boolean }>(
            'select next_build_at <= now() as due from pipeline_schedules where id = $1',
            [id],
          );
          return row?.due === false;
        },
        30_000,
      );
      // A second claim of the same tick, were it possible, would have committed by now: both ticked often.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await scheduledBuilds()).toBe(tick);
    }
    const builds = await call(second, 'GET', '/v2/organizations/acme/pipelines/nightly/builds');
    expect(((await builds.json()) as Array<{ source: string }>).map((build) => build.source)).toEqual([
      'schedule',
      'schedule',
      'schedule',
    ]);
    const schedule = (await (await call(second, 'GET', `${SCHEDULES}/${id}`)).json()) as {
      next_build_at: string;
    };
    expect(schedule.next_build_at).toMatch(/-01-01T00:00:00\.000Z$/);
  });
});
