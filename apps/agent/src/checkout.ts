import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/** How an agent checks out its jobs' repositories (flags of `pnpm agent`). */
export interface CheckoutOptions {
  /** where checkout folders live: `<buildPath>/<agent>/<organization>/<pipeline>`, reused between jobs */
  buildPath: string;
  /** `--skip-checkout`: never check out (a step can ask for the same with `BUILDKITE_SKIP_CHECKOUT=true`) */
  skipCheckout: boolean;
  /** `--checkout-remote`: also clone repositories that are not on this machine (`https://…`, `git@…`) */
  checkoutRemote: boolean;
}

/**
 * Whether a repository is on this machine: a `file://` URL or an absolute path. Only these are cloned
 * by default, so pipelines with made-up or unreachable repository URLs (the demo's) still run.
 */
export function isLocalRepository(repository: string): boolean {
  return repository.startsWith('file://') || isAbsolute(repository);
}

/** The folder to check the job out into, or null when this job runs without a checkout. */
export function checkoutFolder(
  env: Readonly<Record<string, string>>,
  options: CheckoutOptions & { agentName: string },
): string | null {
  const repository = env.BUILDKITE_REPO ?? '';
  if (!repository || options.skipCheckout || env.BUILDKITE_SKIP_CHECKOUT === 'true') return null;
  if (!isLocalRepository(repository) && !options.checkoutRemote) return null;
  const part = (text: string | undefined) => (text || 'unknown').replace(/[^A-Za-z0-9._-]+/g, '-');
  return join(
    options.buildPath,
    part(options.agentName),
    part(env.BUILDKITE_ORGANIZATION_SLUG),
    part(env.BUILDKITE_PIPELINE_SLUG),
  );
}

type Write = (text: string) => void;

/** Runs git, its command line and output written to the job's log; answers its exit status. */
function git(
  args: string[],
  cwd: string,
  write: Write,
  quiet = false,
): Promise<{ status: number; out: string }> {
  if (!quiet) write(`$ git ${args.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn('git', args, {
      cwd,
      // Never wait for a password or a host key: a checkout that needs one fails with git's message.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString('utf8');
      if (!quiet) write(data.toString('utf8'));
    });
    child.stderr.on('data', (data: Buffer) => write(data.toString('utf8')));
    child.once('error', (error) => {
      write(`${error.message}\n`);
      resolve({ status: 127, out });
    });
    child.once('close', (code) => resolve({ status: code ?? 1, out }));
  });
}

/**
 * Checks the build's commit out into `folder`: a fresh clone the first time (or with `clean_checkout`),
 * else a fetch into the folder kept from the pipeline's last job, then a forced checkout and a clean.
 * A commit of `HEAD` means the head of the build's branch. Answers the commit checked out, or git's exit
 * status when a step failed (its error is in the log).
 */
export async function checkout(input: {
  folder: string;
  env: Readonly<Record<string, string>>;
  write: Write;
}): Promise<{ ok: true; commit: string } | { ok: false; status: number }> {
  const { folder, env, write } = input;
  const repository = env.BUILDKITE_REPO ?? '';
  const commit = env.BUILDKITE_COMMIT || 'HEAD';
  const branch = env.BUILDKITE_BRANCH ?? '';
  const reuse = env.BUILDKITE_CLEAN_CHECKOUT !== 'true' && existsSync(join(folder, '.git'));
  const steps: string[][] = [];
  if (reuse) {
    steps.push(['remote', 'set-url', 'origin', repository], ['fetch', '--prune', '--tags', 'origin']);
  } else {
    if (env.BUILDKITE_CLEAN_CHECKOUT === 'true') write('Cleaning the checkout folder (clean_checkout)\n');
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    steps.push(['clone', '--', repository, '.']);
  }
  const target = commit === 'HEAD' && branch ? `origin/${branch}` : commit;
  steps.push(['-c', 'advice.detachedHead=false', 'checkout', '--force', target], ['clean', '-ffxdq']);
  for (const args of steps) {
    const { status } = await git(args, folder, write);
    if (status !== 0) {
      // The next job starts from a fresh clone rather than from whatever this one left.
      await rm(folder, { recursive: true, force: true });
      return { ok: false, status };
    }
  }
  const head = await git(['rev-parse', 'HEAD'], folder, write, true);
  if (head.status !== 0) return { ok: false, status: head.status };
  return { ok: true, commit: head.out.trim() };
}
