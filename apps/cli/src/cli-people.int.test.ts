import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../../../test/support/agents-world';
import { ROOT, spawnCollecting } from '../../../test/support/child-process';
import { CLI, type CliRun, runCli } from '../../../test/support/cli';
import { freePort } from '../../../test/support/free-port';
import { waitFor } from '../../../test/support/wait-for';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
const configDir = mkdtempSync(join(tmpdir(), 'ci-cli-config-'));
beforeAll(async () => {
  world = await startAgentsWorld();
});
afterAll(async () => {
  await world?.close();
});

/** The CLI as a real process, not on a terminal, with no config file unless `env` names one. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { PATH: process.env.PATH ?? '', CI_CONFIG: join(configDir, 'none.json'), ...env });
}

const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasScript) console.warn('the terminal colour test is skipped: `script` (util-linux) is not installed');

const server = () => ['--remote', world.server.baseUrl, '--token', world.token];
const ESCAPE = '\x1b[';

// Each test runs the CLI as a process several times: minutes on a busy machine.
describe('the CLI for people', { timeout: 240_000 }, () => {
  it('answers --help with exit 0 for the program and every command, and names unknown commands', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: pnpm cli');
    expect(help.stdout).toMatch(/build\s+builds/);
    expect(help.stdout).toContain('~/.config/ci/config.json');

    const watch = await cli(['build', 'watch', '--help']);
    expect(watch.code).toBe(0);
    expect(watch.stdout).toContain('Usage: pnpm cli build watch [options]');
    expect(watch.stdout).toMatch(/--number <n>\s+build number \(required\)/);
    expect(watch.stdout).toContain('--interval <seconds>');
    expect(watch.stdout).toContain('--remote <url>'); // the global options too

    const unknown = await cli(['biuld', 'list']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'biuld'");
    expect(unknown.stderr).toContain('Did you mean build?');
    const unknownSub = await cli(['job', 'retyr']);
    expect(unknownSub.code).toBe(2);
    expect(unknownSub.stderr).toContain("unknown command 'retyr'");

    const missing = await cli(['build', 'view', ...server(), '--org', 'acme']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--pipeline is required');
  });

  it('prints tables for people, colours only when asked for off a terminal, and JSON with --json', async () => {
    const pipeline = await world.createPipeline('steps:\n  - command: "true"\n');
    await world.createBuild(pipeline, { message: 'first line\nsecond line' });
    await world.createBuild(pipeline, { message: 'another' });

    const human = await cli(['build', 'list', ...server(), '--org', 'acme', '--pipeline', pipeline]);
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PIPELINE\s+#\s+STATE\s+BRANCH\s+COMMIT\s+CREATED\s+MESSAGE$/);
    expect(lines).toHaveLength(3); // a header and one line a build
    expect(lines[1]).toMatch(
      new RegExp(`^${pipeline}\\s+2\\s+scheduled\\s+main\\s+aaaaaaa\\s+\\S+\\s+another$`),
    );
    expect(lines[2]).toMatch(/\s+first line$/);
    expect(human.stdout).not.toContain(ESCAPE); // not a terminal: no colour

    const forced = await cli(['build', 'list', ...server(), '--org', 'acme', '--pipeline', pipeline], {
      FORCE_COLOR: '1',
    });
    expect(forced.stdout).toContain(ESCAPE);

    const json = await cli(['build', 'list', ...server(), '--org', 'acme', '--pipeline', pipeline, '--json']);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout).builds.map((build: { number: number }) => build.number)).toEqual([2, 1]);
  });

  it.skipIf(!hasScript)('colours a terminal unless NO_COLOR is set', async () => {
    // `script` runs the CLI on a pseudo-terminal, as a person's shell would.
    const onTerminal = (env: Record<string, string>) =>
      new Promise<CliRun>((done) => {
        execFile(
          'script',
          [
            '-qec',
            `${CLI.join(' ')} org list --remote ${world.server.baseUrl} --token ${world.token}`,
            '/dev/null',
          ],
          {
            cwd: ROOT,
            env: { PATH: process.env.PATH ?? '', CI_CONFIG: join(configDir, 'none.json'), ...env },
          },
          (error, stdout, stderr) => done({ code: error ? 1 : 0, stdout, stderr }),
        );
      });
    const coloured = await onTerminal({ TERM: 'xterm-256color' });
    expect(coloured.stdout).toContain('acme');
    expect(coloured.stdout).toContain(ESCAPE);
    const plain = await onTerminal({ TERM: 'xterm-256color', NO_COLOR: '1' });
    expect(plain.stdout).toContain('acme');
    expect(plain.stdout).not.toContain(ESCAPE);
  });

  it('takes the server and token from CI_API_URL and CI_API_TOKEN, or a profile of the config file', async () => {
    const fromEnv = await cli(['whoami', '--json'], {
      CI_API_URL: world.server.baseUrl,
      CI_API_TOKEN: world.token,
    });
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout).user.email).toBeTruthy();

    const config = join(configDir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        profiles: {
          default: { url: world.server.baseUrl, token: world.token },
          broken: { url: world.server.baseUrl, token: 'bkua_not-a-token' },
        },
      }),
      { mode: 0o600 },
    );
    const fromFile = await cli(['whoami'], { CI_CONFIG: config });
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(/^user\s+\S.* <.+@.+>$/m);
    const named = await cli(['whoami', '--profile', 'broken'], { CI_CONFIG: config });
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('401 Authentication required');
    // --token wins over the profile's.
    const flag = await cli(['whoami', '--profile', 'broken', '--token', world.token], { CI_CONFIG: config });
    expect(flag.code).toBe(0);
    const absent = await cli(['whoami', '--profile', 'nope'], { CI_CONFIG: config });
    expect(absent).toMatchObject({ code: 2, stderr: expect.stringContaining('has no profile "nope"') });

    const none = await cli(['whoami']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no server: give --remote URL, set CI_API_URL, or add a profile to');
  });

  it('names the URL and the cause when the server cannot be reached', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const down = await cli(['build', 'list', '--remote', url, '--token', world.token]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`cannot reach ${url}: connect ECONNREFUSED`);
    expect(down.stderr).not.toContain('    at '); // no stack
    const json = await cli(['build', 'list', '--remote', url, '--token', world.token, '--json']);
    expect(JSON.parse(json.stdout).error).toContain(`cannot reach ${url}`);
  });

  it('watches a build run on a real agent, views it, reads, unblocks and retries its jobs, lists agents', async () => {
    const pipeline = await world.createPipeline(`steps:
  - label: hello
    command: echo "hello from the job"; sleep 0.5; echo "second line"
  - block: Release?
    fields:
      - text: Version
        key: version
  - label: after
    command: echo "after the block"
`);
    const { number } = await world.createBuild(pipeline);
    const key = ['--org', 'acme', '--pipeline', pipeline, '--number', String(number)];

    // Watching starts before any agent runs it: the build goes from scheduled to blocked.
    const watching = spawnCollecting(
      CLI[0],
      [CLI[1], 'build', 'watch', ...server(), ...key, '--interval', '0.2'],
      { env: { PATH: process.env.PATH ?? '', CI_CONFIG: join(configDir, 'none.json') } },
    );
    await waitFor(
      'the watch to see the build scheduled',
      async () => /^#\d+ scheduled · 0\/2 jobs finished$/m.test(watching.output()),
      60_000,
    );
    world.startAgent({ name: 'cli-agent' });
    expect(await watching.exit).toEqual({ code: 1, signal: null }); // blocked is not passed
    const blocked = watching.output();
    expect(blocked).toContain('--- hello\n');
    // The log is stdout; the progress lines go to stderr, between its chunks when they come apart.
    expect(watching.stdout()).toContain('hello from the job\nsecond line\n');
    expect(blocked).toMatch(/^#\d+ passed \(blocked\) · 1\/2 jobs finished$/m);
    expect(blocked).toMatch(new RegExp(`^${pipeline} #${number}\\s+passed \\(blocked\\)$`, 'm'));

    const viewed = await cli(['build', 'view', ...server(), ...key]);
    expect(viewed.code).toBe(0);
    expect(viewed.stdout).toMatch(new RegExp(`^${pipeline} #${number}\\s+passed \\(blocked\\)$`, 'm'));
    expect(viewed.stdout).toMatch(/^JOB\s+TYPE\s+LABEL\s+STATE\s+EXIT\s+AGENT$/m);
    expect(viewed.stdout).toMatch(/\sscript\s+hello\s+passed\s+0\s+cli-agent$/m);
    const build = JSON.parse((await cli(['build', 'view', ...server(), ...key, '--json'])).stdout);
    const hello = build.jobs.find((job: { name: string }) => job.name === 'hello');
    const gate = build.jobs.find((job: { type: string }) => job.type === 'manual');

    const log = await cli(['job', 'log', ...server(), ...key, '--job', hello.id]);
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(/^\$ echo "hello from the job".*\nhello from the job\nsecond line\n$/m);
    const logJson = JSON.parse(
      (await cli(['job', 'log', ...server(), ...key, '--job', hello.id, '--json'])).stdout,
    );
    expect(log.stdout).toBe(logJson.content); // the raw text, as the job wrote it
    expect(logJson.size).toBe(Buffer.byteLength(logJson.content));

    const badField = await cli([
      'job',
      'unblock',
      ...server(),
      ...key,
      '--job',
      gate.id,
      '--field',
      'novalue',
    ]);
    expect(badField).toMatchObject({ code: 2, stderr: expect.stringContaining('--field takes key=value') });
    const unblocked = await cli([
      'job',
      'unblock',
      ...server(),
      ...key,
      '--job',
      gate.id,
      '--field',
      'version=1.2.3',
      '--json',
    ]);
    expect(unblocked.code).toBe(0);
    expect(JSON.parse(unblocked.stdout)).toMatchObject({ id: gate.id, state: 'unblocked', type: 'manual' });
    const again = await cli(['job', 'unblock', ...server(), ...key, '--job', gate.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: 422 /);

    const finished = await cli(['build', 'watch', ...server(), ...key, '--interval', '0.2']);
    expect(finished.code).toBe(0);
    // A new watch shows each job's log from its start, then the build as it ended.
    expect(finished.stdout).toMatch(
      /^--- hello\n(.+\n)*hello from the job\n(.+\n)*--- after\n(.+\n)*after the block\n/,
    );
    expect(finished.stdout).toMatch(new RegExp(`^${pipeline} #${number}\\s+passed$`, 'm'));
    expect(finished.stderr).toMatch(/passed · 2\/2 jobs finished$/m);

    const retried = await cli(['job', 'retry', ...server(), ...key, '--job', hello.id]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toMatch(/^retries_count\s+1$/m);
    const rerun = await cli(['build', 'watch', ...server(), ...key, '--interval', '0.2', '--json']);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout.trim().split('\n')).toHaveLength(1); // --json: only the build as it ended
    expect(JSON.parse(rerun.stdout)).toMatchObject({ number, state: 'passed' });

    const agents = await cli(['agent', 'list', ...server(), '--org', 'acme']);
    expect(agents.code).toBe(0);
    expect(agents.stdout).toMatch(/^NAME\s+STATE\s+HOSTNAME\s+VERSION\s+TAGS\s+JOB\s+PAUSED$/m);
    expect(agents.stdout).toMatch(/^cli-agent\s+connected\s+\S+\s+0\.1\s+-\s+-$/m); // no tags, no job
  });
});
