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
 * Each poll reads only the chunks a job logged since the last (`jobs.logAfter`), none of a job whose
 * log was read to its end.
 */
export async function watchBuild(
  client: RemoteClient,
  key: BuildKey,
  options: { intervalMs: number; quiet: boolean },
): Promise<Build> {
  /** The last chunk of each job's log printed so far. */
  const printed = new Map<string, number>();
  /** Jobs whose whole log has been printed: finished, and read to its end. */
  const complete = new Set<string>();
  const progress = progressLine(process.stderr);
  let logsReadable = !options.quiet;
  let lastJob: string | null = null;
  let atLineStart = true;

  /**
   * Prints what the job logged since the last poll, a page at a time: one page of a running job, every
   * page of a finished one. Answers whether its log was read to its end.
   */
  const tailLog = async (job: Job): Promise<boolean> => {
    for (;;) {
      const page = await client.jobs.logAfter.query({
        ...key,
        job: job.id,
        after_sequence: printed.get(job.id) ?? -1,
      });
      printed.set(job.id, page.last_sequence);
      if (page.content) {
        progress.clear();
        if (lastJob !== job.id) {
          // A chunk may end mid-line: the line is ended only when another job's log follows.
          if (!atLineStart) process.stdout.write('\n');
          process.stdout.write(`${paint('bold', `--- ${job.name ?? job.command ?? job.id}`)}\n`);
          lastJob = job.id;
        }
        process.stdout.write(page.content);
        atLineStart = page.content.endsWith('\n');
      }
      if (page.finished || job.finished_at === null || !page.content) return page.finished;
    }
  };

  for (;;) {
    const build = await client.builds.get.query(key);
    for (const job of build.jobs ?? []) {
      if (!logsReadable || job.type !== 'script' || job.started_at === null || complete.has(job.id)) continue;
      try {
        if (await tailLog(job)) complete.add(job.id);
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
      if (!atLineStart) process.stdout.write('\n');
      return build;
    }
    await sleep(options.intervalMs);
  }
}
