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

/** A client that answers the builds in turn, each job's log as it grew, and counts the log reads. */
function clientOf(polls: Array<Record<string, JobState>>, logs: Record<string, string[]>) {
  let poll = -1;
  const reads: string[] = [];
  const client = {
    builds: {
      get: {
        query: async () => {
          poll = Math.min(poll + 1, polls.length - 1);
          return buildWith(polls[poll]!);
        },
      },
    },
    jobs: {
      log: {
        query: async ({ job }: { job: string }) => {
          reads.push(job);
          const grown = logs[job]!;
          return { content: grown[Math.min(poll, grown.length - 1)]! };
        },
      },
    },
  };
  return { client: client as unknown as RemoteClient, reads };
}

afterEach(() => vi.restoreAllMocks());

describe('watchBuild', () => {
  it("reads a finished job's log once more after it finished, then never again, printing each line once", async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { client, reads } = clientOf(
      [
        { quick: 'running', slow: 'scheduled' },
        { quick: 'passed', slow: 'running' },
        { quick: 'passed', slow: 'running' },
        { quick: 'passed', slow: 'running' },
        { quick: 'passed', slow: 'passed' },
      ],
      {
        quick: ['one\n', 'one\ntwo\n'],
        slow: ['', '', 'a\n', 'a\nb\n', 'a\nb\nc\n'],
      },
    );
    const key = { organization: 'acme', pipeline: 'web', number: '1' };
    const ended = await watchBuild(client, key, { intervalMs: 0, quiet: false });

    expect(ended.state).toBe('passed');
    expect(reads.filter((job) => job === 'quick')).toHaveLength(2);
    expect(reads.filter((job) => job === 'slow')).toHaveLength(4);
    expect(stripVTControlCharacters(written.join(''))).toBe('--- quick\none\ntwo\n--- slow\na\nb\nc\n');
  });
});
