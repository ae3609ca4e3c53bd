import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeWithAdmin, freshDatabase } from '../support/database';
import { type ServerProcess, startServerProcesses } from '../support/server-process';

const PER_PROCESS = 64;
const PIPELINE = '/v2/organizations/acme/pipelines/web/builds';

let servers: ServerProcess[] = [];
let token: string;

/** The cast, made in the database both processes will share: one admin, one pipeline, one token. */
async function castIn() {
  const db = await freshDatabase();
  try {
    const acme = await acmeWithAdmin(db.useCases);
    await db.useCases.admin.createPipeline({
      organization: 'acme',
      name: 'web',
      repository: 'git@example.com:acme/web.git',
      steps: 'steps:\n  - label: build\n    command: make build\n',
    });
    return { url: db.url, token: await acme.token() };
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  const cast = await castIn();
  token = cast.token;
  servers = await startServerProcesses(2, { DATABASE_URL: cast.url, PUBLIC_API_URL: 'https://api.ci.test' });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
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
