import { setTimeout as sleep } from 'node:timers/promises';
import { TRPCClientError } from '@trpc/client';
import { paint, paintState } from './output';
import type { RemoteClient } from './remote';

type BuildKey = { organization: string; pipeline: string; number: string };
type Build = Awaited<ReturnType<RemoteClient['builds']['get']['query']>>;
type Job = NonNullable<Build['jobs']>[number];

/** Over: finished, or waiting at a block step with nothing else running. */
const isOver = (build: Build) => build.finished_at !== null || (build.blocked && build.state !== 'running');

/** One line that says how far the build is: rewritten in place on a terminal, else printed when it changes. */
function progressLine(stream: NodeJS.WriteStream) {
  let last = '';
  const started = Date.now();
  return {
    show(build: Build) {
      const jobs = (build.jobs ?? []).filter((job) => job.type === 'script');
      const finished = jobs.filter((job) => job.finished_at !== null).length;
      const running = jobs.filter((job) => job.state === 'running').length;
      const seconds = Math.round((Date.now() - started) / 1000);
      const line =
        `#${build.number} ${paintState(build.state)}${build.blocked ? ' (blocked)' : ''}` +
        ` · ${finished}/${jobs.length} jobs finished` +
        (running ? `, ${running} running` : '');
      if (stream.isTTY) stream.write(`\r\x1b[2K${line} · ${seconds}s`);
      else if (line !== last) stream.write(`${line}\n`);
      last = line;
    },
    /** Clears a rewritten line before other output. */
    clear() {
      if (stream.isTTY && last) stream.write('\r\x1b[2K');
    },
  };
}

/**
 * Polls the build every `intervalMs` until it is over, printing what its jobs logged since the last poll
 * (stdout) and a progress line (stderr); `quiet` prints nothing. Resolves with the build as it ended.
 * The API reads a log only whole, so a running job's is read again each poll, a finished job's once.
 */
export async function watchBuild(
  client: RemoteClient,
  key: BuildKey,
  options: { intervalMs: number; quiet: boolean },
): Promise<Build> {
  const printed = new Map<string, number>();
  /** Jobs whose whole log has been printed: seen finished before it was read, so it grows no more. */
  const complete = new Set<string>();
  const progress = progressLine(process.stderr);
  let logsReadable = !options.quiet;
  let lastJob: string | null = null;

  const tailLog = async (job: Job) => {
    const log = await client.jobs.log.query({ ...key, job: job.id });
    const fresh = log.content.slice(printed.get(job.id) ?? 0);
    if (!fresh) return;
    progress.clear();
    if (lastJob !== job.id) {
      process.stdout.write(`${paint('bold', `--- ${job.name ?? job.command ?? job.id}`)}\n`);
      lastJob = job.id;
    }
    process.stdout.write(fresh.endsWith('\n') ? fresh : `${fresh}\n`);
    printed.set(job.id, log.content.length);
  };

  for (;;) {
    const build = await client.builds.get.query(key);
    for (const job of build.jobs ?? []) {
      if (!logsReadable || job.type !== 'script' || job.started_at === null || complete.has(job.id)) continue;
      try {
        await tailLog(job);
        if (job.finished_at !== null) complete.add(job.id);
      } catch (error) {
        // A token without read_build_logs still follows the build's state.
        const status = error instanceof TRPCClientError ? error.data?.httpStatus : undefined;
        if (status !== 403) throw error;
        logsReadable = false;
        process.stderr.write(`logs not shown: ${(error as Error).message}\n`);
      }
    }
    if (!options.quiet) progress.show(build);
    if (isOver(build)) {
      progress.clear();
      return build;
    }
    await sleep(options.intervalMs);
  }
}
