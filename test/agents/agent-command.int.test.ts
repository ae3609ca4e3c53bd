import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { EXIT_WITH_PARENT, type Spawned, spawnCollecting } from '../support/child-process';
import { freePort } from '../support/free-port';
import { waitFor } from '../support/wait-for';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
const started: Spawned[] = [];
beforeAll(async () => {
  world = await startAgentsWorld();
});
afterAll(async () => {
  for (const agent of started) agent.child.kill('SIGTERM');
  await Promise.all(started.map((agent) => agent.exit));
  await world?.close();
});

/** `pnpm agent` as a real process with only the environment given (and PATH). */
function agent(args: string[], env: Record<string, string> = {}): Spawned {
  const spawned = spawnCollecting(
    process.execPath,
    ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'apps/agent/src/main.ts', ...args],
    { env: { PATH: process.env.PATH ?? '', ...env }, ipc: true },
  );
  started.push(spawned);
  return spawned;
}

describe('the agent command', { timeout: 180_000 }, () => {
  it('answers --help with exit 0 and its flags, and a missing token with exit 2 and no stack', async () => {
    const help = agent(['--help']);
    expect(await help.exit).toEqual({ code: 0, signal: null });
    for (const text of ['Usage: pnpm agent', '--token <token>', 'CI_AGENT_TOKEN', '--endpoint <url>']) {
      expect(help.output()).toContain(text);
    }
    expect(help.output()).toContain('CI_AGENT_ENDPOINT');
    expect(help.output()).toContain('--retries <n>');
    expect(help.output()).toContain('--skip-checkout');

    const noToken = agent([]);
    expect(await noToken.exit).toEqual({ code: 2, signal: null });
    expect(noToken.output()).toContain("required option '--token <token>' not specified");
    const unknown = agent(['--bogus'], { CI_AGENT_TOKEN: 'bkrt_unused' });
    expect(await unknown.exit).toEqual({ code: 2, signal: null });
    expect(unknown.output()).toContain("unknown option '--bogus'");
    expect(unknown.output()).not.toContain('    at ');
  });

  it("takes its token from CI_AGENT_TOKEN and its endpoint from the server's PORT, logging JSON", async () => {
    const port = new URL(world.server.baseUrl).port;
    const running = agent(['--name', 'from-env'], { CI_AGENT_TOKEN: world.registrationToken, PORT: port });
    await waitFor('the agent to register', async () => running.output().includes('waiting for jobs'), 60_000);
    // The token is not on its command line, which every user of the machine can read.
    const commandLine = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8');
    expect(commandLine).not.toContain(world.registrationToken);
    const lines = running.output().trim().split('\n');
    const registered = lines.map((line) => JSON.parse(line)).find((entry) => /registered as/.test(entry.msg));
    expect(registered).toMatchObject({
      level: 30,
      name: 'agent',
      msg: 'registered as from-env; waiting for jobs',
    });

    const pipeline = await world.createPipeline('steps:\n  - command: echo ran by the env agent\n');
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed', 60_000);
    expect(build.jobs[0].agent.name).toBe('from-env');
  });

  it('tries again with backoff while the server cannot be reached, then names the URL and the cause', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}/v3`;
    const away = agent(['--endpoint', endpoint, '--retries', '2'], { CI_AGENT_TOKEN: 'bkrt_unused' });
    expect(await away.exit).toEqual({ code: 1, signal: null });
    const output = away.output();
    expect(output).toContain(`register failed: cannot reach ${endpoint}/register: connect ECONNREFUSED`);
    expect(output).toMatch(/trying again in \d+ ms \(2 left\)/);
    expect(output).toMatch(/trying again in \d+ ms \(1 left\)/);
    expect(output).toContain(`agent stopped: cannot reach ${endpoint}/register`);
    expect(output).not.toContain('fetch failed');

    // A refusal is not tried again: the token is wrong, and waiting will not make it right.
    const refused = agent(['--endpoint', `${world.server.baseUrl}/v3`], { CI_AGENT_TOKEN: 'bkrt_wrong' });
    expect(await refused.exit).toEqual({ code: 1, signal: null });
    expect(refused.output()).not.toContain('trying again');
    expect(refused.output()).toContain('agent stopped: POST /register: 401');
  });
});
