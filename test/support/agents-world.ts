import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_WITH_PARENT, spawnCollecting } from './child-process';
import { acmeWithAdmin, freshDatabase } from './database';
import { jsonCaller } from './http';
import { type ServerProcess, startServerProcesses } from './server-process';
import { waitFor } from './wait-for';

/** Fast agent timings, so that end-to-end tests take seconds: pings, cancels and lost jobs alike. */
export const FAST_AGENTS = {
  TRIGGER_PASS_SECONDS: '0.2',
  AGENT_PING_INTERVAL_SECONDS: '0.2',
  AGENT_JOB_STATUS_INTERVAL_SECONDS: '0.3',
  AGENT_HEARTBEAT_INTERVAL_SECONDS: '0.5',
  AGENT_LOST_AFTER_SECONDS: '3',
};

export interface AgentProcess {
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM: the agent stops its job, disconnects and exits */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
}

/** A real agent process (`apps/agent/src/main.ts`) against `endpoint`. */
export function startAgent(options: {
  token: string;
  endpoint: string;
  tags?: string[];
  name?: string;
  /** where the agent keeps checkout folders (`--build-path`) */
  buildPath?: string;
  args?: string[];
}): AgentProcess {
  const args = ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'apps/agent/src/main.ts'];
  args.push('--token', options.token, '--endpoint', options.endpoint);
  for (const tag of options.tags ?? []) args.push('--tags', tag);
  if (options.name) args.push('--name', options.name);
  if (options.buildPath) args.push('--build-path', options.buildPath);
  args.push(...(options.args ?? []));
  const {
    child,
    output,
    exit: exited,
  } = spawnCollecting(process.execPath, args, {
    env: { ...process.env },
    ipc: true,
  });
  return {
    pid: child.pid ?? 0,
    output,
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * A database with organization `acme`, its admin and a token, served by `servers` real server processes
 * with fast agent timings; agents are started per test with the organization's registration token.
 */
export async function startAgentsWorld(options: { servers?: number; env?: Record<string, string> } = {}) {
  const db = await freshDatabase();
  const admin = db.useCases.admin;
  const token = await (await acmeWithAdmin(db.useCases)).token();
  const registrationToken = (await admin.createAgentToken({ organization: 'acme' })).secret;
  const servers = await startServerProcesses(options.servers ?? 1, {
    DATABASE_URL: db.url,
    ...FAST_AGENTS,
    ...options.env,
  });
  const server = servers[0]!;
  const call = jsonCaller({ fetch: (path, init) => fetch(`${server.baseUrl}${path}`, init) }, () => token);
  const agents: AgentProcess[] = [];
  // Each world's agents keep their checkouts apart from every other test file's.
  const buildPath = await mkdtemp(join(tmpdir(), 'ci-agent-builds-'));

  let pipelines = 0;
  const createPipeline = async (steps: string, options: { repository?: string } = {}) =>
    (
      await admin.createPipeline({
        organization: 'acme',
        name: `p${++pipelines}`,
        repository: options.repository ?? 'git@example.com:acme/app.git',
        steps,
      })
    ).slug;

  const createBuild = async (pipeline: string, body: Record<string, unknown> = {}) => {
    const response = await call('POST', `/v2/organizations/acme/pipelines/${pipeline}/builds`, {
      body: { commit: 'a'.repeat(40), branch: 'main', message: 'e2e', ...body },
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
    return response.body as { number: number; id: string };
  };

  const getBuild = async (pipeline: string, number: number, query = '') => {
    const response = await call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}${query}`,
    );
    if (response.status !== 200) throw new Error(`get failed: ${response.status} ${response.text}`);
    // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a client sees
    return response.body as any;
  };

  /** A job's log as plain text (`…/log.txt`). */
  const logText = async (pipeline: string, number: number, jobId: string) =>
    (await call('GET', `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${jobId}/log.txt`))
      .text;

  const waitForBuild = async (pipeline: string, number: number, state: string, timeoutMs = 30_000) => {
    let seen: { state: string; jobs?: { name: string | null; type: string; state: string }[] } | undefined;
    try {
      return await waitFor(
        `build ${number} ${state}`,
        async () => {
          const build = await getBuild(pipeline, number);
          seen = build;
          return build.state === state ? build : null;
        },
        timeoutMs,
      );
    } catch (error) {
      // Where it stopped, for a failure's message: the build's state and each job's.
      const jobs = (seen?.jobs ?? []).map((job) => `${job.name ?? job.type}=${job.state}`).join(', ');
      throw new Error(`${(error as Error).message} (last seen ${seen?.state ?? 'never'}; jobs: ${jobs})`);
    }
  };

  return {
    db,
    servers,
    server,
    token,
    registrationToken,
    call,
    agents,
    createPipeline,
    createBuild,
    getBuild,
    logText,
    waitForBuild,
    buildPath,
    /** An agent registered with the organization's token, or with `token` (a cluster's). */
    startAgent: (
      opts: { server?: ServerProcess; tags?: string[]; name?: string; token?: string; args?: string[] } = {},
    ) => {
      const agent = startAgent({
        token: opts.token ?? registrationToken,
        buildPath,
        ...(opts.args ? { args: opts.args } : {}),
        endpoint: `${(opts.server ?? server).baseUrl}/v3`,
        ...(opts.tags ? { tags: opts.tags } : {}),
        ...(opts.name ? { name: opts.name } : {}),
      });
      agents.push(agent);
      return agent;
    },
    close: async () => {
      // SIGTERM first, so agents stop their jobs' processes; SIGKILL what does not exit in time.
      await Promise.all(
        agents.map((agent) =>
          Promise.race([agent.stop(), new Promise((r) => setTimeout(r, 5_000))]).then(() => agent.kill()),
        ),
      );
      await Promise.all(servers.map((s) => s.stop()));
      await db.close();
      await rm(buildPath, { recursive: true, force: true });
    },
  };
}
