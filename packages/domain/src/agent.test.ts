import { describe, expect, it } from 'vitest';
import { parseAgentListFilter } from './agent';

const noRest = { name: null, hostname: null, version: null, presentOnly: false, clusterQueueIds: null };

describe('parseAgentListFilter', () => {
  it.each([
    ['nothing: every agent', {}, { search: null, metaData: [], isRunningJob: null, ...noRest }],
    [
      'an empty search is no search',
      { search: '' },
      { search: null, metaData: [], isRunningJob: null, ...noRest },
    ],
    [
      'a search, tags (once each) and whether they run a job',
      { search: 'Linux', metaData: ['queue=a', 'os=linux', 'queue=a'], isRunningJob: false },
      { search: 'Linux', metaData: ['queue=a', 'os=linux'], isRunningJob: false, ...noRest },
    ],
    [
      'null arguments',
      { search: null, metaData: null, isRunningJob: null, ...noRest },
      { search: null, metaData: [], isRunningJob: null, ...noRest },
    ],
  ])('takes %s', (_name, query, filter) => {
    expect(parseAgentListFilter(query)).toEqual({ ok: true, value: filter });
  });

  it.each([
    [
      'a NUL in the search',
      { search: 'a\u0000b' },
      "search can't contain NUL characters or unpaired surrogates",
    ],
    [
      'an unpaired surrogate in a tag',
      { metaData: ['queue=\ud800'] },
      "metaData can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a search over 255 characters',
      { search: 'x'.repeat(256) },
      'search is too long (maximum is 255 characters)',
    ],
    [
      'a tag over 356 characters',
      { metaData: [`k=${'v'.repeat(355)}`] },
      'metaData tags are at most 356 characters',
    ],
    [
      'more than 50 tags',
      { metaData: Array.from({ length: 51 }, (_, i) => `k=${i}`) },
      'metaData takes at most 50 tags',
    ],
  ])('refuses %s with a 400', (_name, query, message) => {
    const result = parseAgentListFilter(query);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('bad_request');
      expect(result.error.message).toBe(message);
    }
  });
});

describe('parseAgentListFilter with cluster queues', () => {
  const uuid = '0190f3a0-5555-7abc-8def-0123456789ab';
  it('takes queues by GraphQL id or UUID, and no filter for none', () => {
    const graphqlId = Buffer.from(`ClusterQueue---${uuid}`).toString('base64');
    expect(parseAgentListFilter({ clusterQueues: [graphqlId, uuid.toUpperCase()] })).toMatchObject({
      ok: true,
      value: { clusterQueueIds: [uuid] },
    });
    expect(parseAgentListFilter({ clusterQueues: [] })).toMatchObject({ value: { clusterQueueIds: null } });
  });
  it('keeps a filter that names no queue, which matches nothing', () => {
    const clusterId = Buffer.from(`Cluster---${uuid}`).toString('base64');
    expect(parseAgentListFilter({ clusterQueues: [clusterId, 'nope'] })).toMatchObject({
      value: { clusterQueueIds: [] },
    });
  });
});
