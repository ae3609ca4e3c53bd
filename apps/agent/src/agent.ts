import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pRetry from 'p-retry';
import { type CheckoutOptions, checkout, checkoutFolder } from './checkout';
import { jobApiFromEnv } from './job-api';
import { uploadArtifacts } from './job-commands/artifact';

export interface AgentOptions {
  /** the organization's agent registration token */
  token: string;
  /** the agent API, e.g. `http://127.0.0.1:3000/v3` */
  endpoint: string;
  tags: string[];
  name?: string;
  log?: (message: string) => void;
  /** how jobs' repositories are checked out; by default only local ones, under the temporary folder */
  checkout?: Partial<CheckoutOptions>;
  /** how often registering and connecting are tried again when the server is away or failing (10) */
  retries?: number;
  /** the first wait between those tries, doubled each time up to 30 s (1 s) */
  retryDelayMs?: number;
}

interface AgentJob {
  id: string;
  state: string;
  env: Record<string, string>;
  step?: { command?: string | null };
}

interface Registration {
  access_token: string;
  ping_interval: number;
  job_status_interval: number;
  heartbeat_interval: number;
  name: string;
  uuid: string;
}

/** This agent's version, as it registers and in its User-Agent. */
export const AGENT_VERSION = '0.1';

/** Log chunks go out at least this often while a job prints, and when this many bytes are waiting. */
const FLUSH_MS = 200;
const CHUNK_BYTES = 64 * 1024;
/** After SIGTERM, how long a canceled job's processes get before SIGKILL. */
const KILL_GRACE_MS = 3_000;

class AgentApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The server could not be reached at all: named with the URL and the socket's own reason. */
class ServerUnreachable extends Error {}

function unreachable(url: string, error: Error): ServerUnreachable {
  let cause: Error & { code?: string } = error;
  while (cause.cause instanceof Error) cause = cause.cause;
  // An AggregateError (every address of a name refused) has only a code.
  return new ServerUnreachable(`cannot reach ${url}: ${cause.message || cause.code || cause.name}`);
}

/** Worth trying again: the server is away, overloaded or failing, not refusing us. */
const isPassing = (error: unknown) =>
  error instanceof ServerUnreachable ||
  (error instanceof AgentApiError && (error.status >= 500 || error.status === 429));

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * A runnable agent: registers, connects, pings for work and runs each job's command with `sh -c` in a
 * fresh directory, streaming its output as log chunks. Resolves once `stop` is aborted (SIGTERM): a
 * running job is stopped and reported, then the agent disconnects.
 */
export async function runAgent(options: AgentOptions, stop: AbortSignal): Promise<void> {
  const log = options.log ?? (() => {});
  const checkoutOptions: CheckoutOptions = {
    buildPath: options.checkout?.buildPath ?? join(tmpdir(), 'ci-agent-builds'),
    skipCheckout: options.checkout?.skipCheckout ?? false,
    checkoutRemote: options.checkout?.checkoutRemote ?? false,
  };
  const endpoint = options.endpoint.replace(/\/+$/, '');
  const call = async <T>(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    const url = `${endpoint}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        Authorization: `Token ${token}`,
        'User-Agent': `ci-control-agent/${AGENT_VERSION}`,
        ...(body !== undefined && !(body instanceof Uint8Array)
          ? { 'Content-Type': 'application/json' }
          : {}),
        ...headers,
      },
      ...(body !== undefined
        ? { body: body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body) }
        : {}),
    }).catch((error: Error) => {
      throw unreachable(url, error);
    });
    const text = await response.text();
    if (!response.ok)
      throw new AgentApiError(response.status, `${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  // A server that is starting, restarting or briefly away is waited for, with backoff; a refusal is not.
  const withRetries = <T>(what: string, attempt: () => Promise<T>) =>
    pRetry(attempt, {
      retries: options.retries ?? 10,
      minTimeout: options.retryDelayMs ?? 1_000,
      maxTimeout: 30_000,
      signal: stop,
      shouldRetry: ({ error }) => isPassing(error),
      onFailedAttempt: ({ error, retriesLeft, retryDelay }) => {
        if (isPassing(error) && retriesLeft > 0)
          log(`${what} failed: ${error.message}; trying again in ${retryDelay} ms (${retriesLeft} left)`);
      },
    });
  const registration = await withRetries('register', () =>
    call<Registration>('POST', '/register', options.token, {
      name: options.name ?? `${hostname()}-${process.pid}`,
      hostname: hostname(),
      meta_data: options.tags,
      os: process.platform,
      arch: process.arch,
      pid: process.pid,
      version: AGENT_VERSION,
    }),
  );
  const token = registration.access_token;
  const bin = await jobCommandsBin();
  await withRetries('connect', () => call('POST', '/connect', token, {}));
  log(`registered as ${registration.name}; waiting for jobs`);

  const heartbeat = setInterval(() => {
    call('POST', '/heartbeat', token, { sent_at: new Date().toISOString() }).catch((error) =>
      log(`heartbeat failed: ${(error as Error).message}`),
    );
  }, registration.heartbeat_interval * 1000);

  try {
    let paused = false;
    while (!stop.aborted) {
      let job: AgentJob | undefined;
      try {
        const ping = await call<{ action: string; job?: AgentJob }>('GET', '/ping', token);
        if (ping.action === 'disconnect') {
          log('told to stop');
          break;
        }
        // Paused: still pinging, offered no job until it is resumed.
        if ((ping.action === 'pause') !== paused) log(ping.action === 'pause' ? 'paused' : 'resumed');
        paused = ping.action === 'pause';
        job = ping.job;
      } catch (error) {
        log(`ping failed: ${(error as Error).message}`);
      }
      if (job) {
        await runJob(job).catch((error) => log(`job ${job?.id} failed to run: ${(error as Error).message}`));
        continue; // ready for the next job at once
      }
      await sleep(registration.ping_interval * 1000, stop);
    }
  } finally {
    clearInterval(heartbeat);
    await rm(bin, { recursive: true, force: true }).catch(() => {});
    await call('POST', '/disconnect', token, {}).catch((error) =>
      log(`disconnect failed: ${(error as Error).message}`),
    );
    log('disconnected');
  }

  async function runJob(offered: AgentJob) {
    const job = await call<AgentJob>('PUT', `/jobs/${offered.id}/accept`, token);
    await call('PUT', `/jobs/${job.id}/start`, token, { started_at: new Date().toISOString() });
    const command = job.env.BUILDKITE_COMMAND ?? job.step?.command ?? '';
    log(`running job ${job.id}: ${command}`);
    const folder = checkoutFolder(job.env, { ...checkoutOptions, agentName: registration.name });
    // Without a checkout, a fresh folder of its own, removed afterwards; a checkout folder is kept.
    const directory = folder ?? (await mkdtemp(join(tmpdir(), 'ci-agent-job-')));
    let sequence = 0;
    let offset = 0;
    let pending = '';
    let chunksFailed = 0;
    let sending = Promise.resolve();
    const flush = () => {
      if (!pending) return sending;
      const data = Buffer.from(pending);
      pending = '';
      const current = { sequence: sequence++, offset };
      offset += data.length;
      sending = sending.then(() =>
        call(
          'POST',
          `/jobs/${job.id}/chunks?sequence=${current.sequence}&offset=${current.offset}&size=${data.length}`,
          token,
          new Uint8Array(data),
          { 'Content-Type': 'application/octet-stream' },
        ).then(
          () => {},
          () => {
            chunksFailed++;
          },
        ),
      );
      return sending;
    };

    const write = (text: string) => {
      pending += text;
      if (Buffer.byteLength(pending) >= CHUNK_BYTES) void flush();
    };
    const flusher = setInterval(() => void flush(), FLUSH_MS);
    let commit = job.env.BUILDKITE_COMMIT ?? '';
    if (folder) {
      write(`~~~ Preparing working directory\n`);
      const checkedOut = await checkout({ folder, env: job.env, write });
      if (!checkedOut.ok) {
        write(`Checkout failed (git exited with status ${checkedOut.status}); the command did not run\n`);
        clearInterval(flusher);
        await flush();
        await finish({ code: checkedOut.status, signal: null }, null);
        return;
      }
      commit = checkedOut.commit;
    }
    write(`~~~ Running commands\n$ ${command}\n`);

    const child: ChildProcess = spawn('sh', ['-c', command], {
      cwd: directory,
      env: {
        ...process.env,
        ...job.env,
        BUILDKITE_COMMIT: commit,
        BUILDKITE_BUILD_CHECKOUT_PATH: directory,
        // The job's own commands (job-cli.ts) talk back with the agent's token.
        BUILDKITE_AGENT_ACCESS_TOKEN: token,
        BUILDKITE_AGENT_ENDPOINT: endpoint,
        PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a cancel stops everything the command started.
      detached: true,
    });
    const onOutput = (data: Buffer) => write(data.toString('utf8'));
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);

    let signalReason: string | null = null;
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    };
    let terminating = false;
    /** Stops the command; `reason` is what the agent reports (none for a timeout: the server sees it). */
    const terminate = (reason: string | null) => {
      if (terminating) return;
      terminating = true;
      signalReason = reason;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS).unref();
    };
    // The step's timeout (BUILDKITE_TIMEOUT: minutes, or "false"); the server then marks it timed out.
    const minutes = Number(job.env.BUILDKITE_TIMEOUT);
    const deadline =
      Number.isFinite(minutes) && minutes > 0
        ? setTimeout(() => {
            pending += `\n~~~ Timed out after ${minutes} minute${minutes === 1 ? '' : 's'}\n`;
            terminate(null);
          }, minutes * 60_000)
        : undefined;
    const onStop = () => terminate('agent_stop');
    stop.addEventListener('abort', onStop, { once: true });
    const statusPoll = setInterval(() => {
      call<{ state: string }>('GET', `/jobs/${job.id}`, token).then(
        (state) => {
          if (state.state === 'canceling' || state.state === 'canceled') terminate('cancel');
        },
        () => {},
      );
    }, registration.job_status_interval * 1000);

    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('error', () => resolve({ code: 127, signal: null }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    clearInterval(statusPoll);
    clearInterval(flusher);
    clearTimeout(deadline);
    stop.removeEventListener('abort', onStop);
    // The whole group goes: nothing the command started outlives its job.
    killGroup('SIGKILL');
    // A step's `artifact_paths` go up after its command, into the job's log; a failed upload fails the job.
    const uploaded = await uploadStepArtifacts({ job, cwd: directory, endpoint, token }, (line) => {
      pending += `${line}\n`;
    });
    await flush();
    if (!folder) await rm(directory, { recursive: true, force: true }).catch(() => {});
    // A failed artifact upload fails a job whose command passed.
    await finish(exit.code === 0 && !uploaded ? { code: 1, signal: exit.signal } : exit, signalReason);

    async function finish(
      end: { code: number | null; signal: NodeJS.Signals | null },
      reason: string | null,
    ) {
      const exitStatus = end.code ?? -1;
      await call('PUT', `/jobs/${job.id}/finish`, token, {
        exit_status: String(exitStatus),
        ...(end.signal ? { signal: end.signal } : {}),
        ...(reason ? { signal_reason: reason } : {}),
        finished_at: new Date().toISOString(),
        chunks_failed_count: chunksFailed,
      });
      log(`finished job ${job.id}: exit ${exitStatus}${end.signal ? ` (${end.signal})` : ''}`);
    }
  }
}

/** Uploads the step's `artifact_paths` (BUILDKITE_ARTIFACT_PATHS) from `cwd`; false when it failed. */
async function uploadStepArtifacts(
  input: { job: AgentJob; cwd: string; endpoint: string; token: string },
  log: (line: string) => void,
): Promise<boolean> {
  const { job, cwd } = input;
  const globs = job.env.BUILDKITE_ARTIFACT_PATHS?.trim();
  if (!globs) return true;
  log('~~~ Uploading artifacts');
  try {
    const api = jobApiFromEnv({
      BUILDKITE_AGENT_ENDPOINT: input.endpoint,
      BUILDKITE_AGENT_ACCESS_TOKEN: input.token,
      BUILDKITE_JOB_ID: job.id,
    });
    await uploadArtifacts(api, { cwd, globs: [globs], log });
    return true;
  } catch (error) {
    log(`artifact upload failed: ${(error as Error).message}`);
    return false;
  }
}

/**
 * A folder for a job's PATH with `ci-agent` and `buildkite-agent`, both running job-cli.ts with this
 * Node and tsx (the public agent's name, so pipelines written for it run unchanged).
 */
async function jobCommandsBin(): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), 'ci-agent-bin-'));
  const cli = fileURLToPath(new URL('./job-cli.ts', import.meta.url));
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const script = `#!/bin/sh\nexec ${quote(process.execPath)} --import ${quote(import.meta.resolve('tsx'))} ${quote(cli)} "$@"\n`;
  for (const name of ['ci-agent', 'buildkite-agent']) {
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}
