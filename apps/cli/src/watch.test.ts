import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RemoteClient } from './remote';
import { watchBuild } from './watch';

type JobState = 'scheduled' | 'running' | 'passed';

/** A build whose jobs are in these states, as `builds.get` answers it (only what the watch reads). */
function buildWith(states: Record<string, JobState>) {
  const jobs = Object.entries(states).map(([id, state]) => ({
    id,
    type: 'script',
    name: id,
    state,
    started_at: state === 'scheduled' ? null : '2026-11-27T10:00:00.000Z',
    finished_at: state === 'passed' ? '2026-11-27T10:01:00.000Z' : null,
  }));
  const over = jobs.every((job) => job.finished_at !== null);
  return {
    number: 1,
    state: over ? 'passed' : 'running',
    blocked: false,
    finished_at: over ? '2026-11-27T10:02:00.000Z' : null,
    jobs,
  };
}

/**
 * A client that answers the builds in turn and, as `jobs.logAfter` does, a page of at most `pageSize`
 * of the chunks each job had logged by that poll (`chunks[job][poll]`); it records each log read.
 */
function clientOf(input: {
  polls: Array<Record<string, JobState>>;
  chunks: Record<string, string[][]>;
  pageSize: number;
}) {
  let poll = -1;
  const reads: Array<{ job: string; after: number }> = [];
  const client = {
    builds: {
      get: {
        query: async () => {
          poll = Math.min(poll + 1, input.polls.length - 1);
          return buildWith(input.polls[poll]!);
        },
      },
    },
    jobs: {
      logAfter: {
        query: async ({ job, after_sequence }: { job: string; after_sequence: number }) => {
          reads.push({ job, after: after_sequence });
          const logged = input.chunks[job]![poll]!;
          const page = logged.slice(after_sequence + 1, after_sequence + 1 + input.pageSize);
          const finished = input.polls[poll]![job] === 'passed' && page.length < input.pageSize;
          return {
            content: page.join(''),
            last_sequence: after_sequence + page.length,
            finished,
          };
        },
      },
    },
  };
  return { client: client as unknown as RemoteClient, reads };
}

afterEach(() => vi.restoreAllMocks());

const key = { organization: 'acme', pipeline: 'web', number: '1' };

function captureOutput() {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return () => stripVTControlCharacters(written.join(''));
}

describe('watchBuild', () => {
  it('reads only the chunks logged since the last poll, and nothing of a job read to its end', async () => {
    const output = captureOutput();
    const { client, reads } = clientOf({
      polls: [
        { quick: 'running', slow: 'scheduled' },
        { quick: 'passed', slow: 'running' },
        { quick: 'passed', slow: 'running' },
        { quick: 'passed', slow: 'running' },
        { quick: 'passed', slow: 'passed' },
      ],
      chunks: {
        quick: [['one\n'], ['one\n', 'two\n']],
        slow: [[], [], ['a\n'], ['a\n', 'b\n'], ['a\n', 'b\n', 'c\n']],
      },
      pageSize: 10,
    });
    const ended = await watchBuild(client, key, { intervalMs: 0, quiet: false });

    expect(ended.state).toBe('passed');
    expect(reads).toEqual([
      { job: 'quick', after: -1 },
      { job: 'quick', after: 0 },
      { job: 'slow', after: -1 },
      { job: 'slow', after: -1 },
      { job: 'slow', after: 0 },
      { job: 'slow', after: 1 },
    ]);
    expect(output()).toBe('--- quick\none\ntwo\n--- slow\na\nb\nc\n');
  });

  it("reads a finished job's log to its end, a page at a time, before the watch ends", async () => {
    const output = captureOutput();
    const lines = Array.from({ length: 5 }, (_, index) => `line ${index}\n`);
    const { client, reads } = clientOf({
      polls: [{ long: 'passed' }],
      chunks: { long: [lines] },
      pageSize: 2,
    });
    await watchBuild(client, key, { intervalMs: 0, quiet: false });

    expect(reads.map((read) => read.after)).toEqual([-1, 1, 3]);
    expect(output()).toBe(`--- long\n${lines.join('')}`);
  });
});
