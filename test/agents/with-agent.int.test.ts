import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_AGENTS } from '../support/agents-world';
import { freshDatabaseUrl } from '../support/database';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { waitFor } from '../support/wait-for';

let server: ServerProcess;
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  server = await startServerProcess(
    { DATABASE_URL: databaseUrl, SEED_DEMO: 'true', LOG_LEVEL: 'info', ...FAST_AGENTS },
    { args: ['--with-agent'] },
  );
});
afterAll(async () => {
  await server?.stop();
});

describe('pnpm start --with-agent', () => {
  it('runs a first build with the agent inside the server', async () => {
    // The demo is seeded, and its token printed, once the server listens: shortly after it answers.
    const token = await waitFor(
      'the demo token',
      async () => /Authorization: Bearer (bkua_[0-9a-f]+)/.exec(server.output())?.[1],
    );
    const { number } = (await (
      await fetch(`${server.baseUrl}/v2/organizations/acme/pipelines/website/builds`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ commit: 'HEAD', branch: 'main', message: 'first build' }),
      })
    ).json()) as { number: number };
    const build = await waitFor(
      'the build to pass',
      async () => {
        const response = await fetch(
          `${server.baseUrl}/v2/organizations/acme/pipelines/website/builds/${number}`,
          {
            headers: { Authorization: `Bearer ${token}` },
          },
        );
        // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a client sees
        const body = (await response.json()) as any;
        return body.state === 'passed' ? body : null;
      },
      30_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output()}`);
    });
    const { agent } = build.jobs.find((job: { type: string }) => job.type === 'script');
    expect(agent.name).toBe('demo-agent');
    // The build's job shows its agent as the organization's build list does (one build's statement reads
    // the agent as a nested object, the list's its columns).
    const listed = (await (
      await fetch(`${server.baseUrl}/v2/organizations/acme/builds`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { number: number; jobs: { id: string; agent: unknown }[] }[];
    const jobs = listed.find((each) => each.number === number)?.jobs;
    expect(jobs?.find((job) => job.agent !== null)?.agent).toEqual(agent);
    expect(agent).toMatchObject({
      name: 'demo-agent',
      connection_state: 'connected',
      url: expect.stringContaining(`/agents/${agent.id}`),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const agents = await fetch(`${server.baseUrl}/healthz`);
    expect(agents.status).toBe(200);
  });
});
