import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TeamPipelineResult } from '@ci/application';
import { describe, expect, it } from 'vitest';
import { presentTeamPipeline, presentTeamPipelines } from './team-pipeline.presenter';
import { TeamPipelineWire } from './team-pipeline.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const read = (file: string): unknown => JSON.parse(readFileSync(`${EXAMPLES}/${file}`, 'utf8'));
const example = (file: string): Json => {
  const body = read(file);
  return (Array.isArray(body) ? body[0] : body) as Json;
};

const URLS = { api: 'http://api.buildkite.com' };
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// The association of the public examples, so that whole bodies can be compared with theirs.
const result = (
  accessLevel: TeamPipelineResult['teamPipeline']['accessLevel'],
): Parameters<typeof presentTeamPipeline>[0] => ({
  teamPipeline: {
    id: '0190f3a2-0001-7abc-8def-0123456789ab',
    teamId: '0190f3a0-9999-7abc-8def-0123456789ab',
    pipelineId: '018c5ad7-28f1-45d4-867e-b59fa04511b2',
    accessLevel,
    createdAt: new Date('2023-12-12T21:57:40.306Z'),
  },
  pipelineSlug: 'test-pipeline',
  organizationSlug: 'acme-inc',
});

describe('presentTeamPipeline', () => {
  it.each([
    'team-pipelines-get.json',
    'team-pipelines-create.json',
    'team-pipelines-update.json',
    'team-pipelines-list.json',
  ])('has the keys of %s, in their order', (file) => {
    expect(Object.keys(presentTeamPipeline(result('read_only'), URLS))).toEqual(Object.keys(example(file)));
  });

  it.each([
    ['team-pipelines-get.json', 'read_only'],
    ['team-pipelines-update.json', 'read_only'],
    ['team-pipelines-list.json', 'manage_build_and_read'],
  ] as const)('gives the body of %s for the same association', (file, accessLevel) => {
    expect(presentTeamPipeline(result(accessLevel), URLS)).toEqual(example(file));
  });

  it('differs from the create example only in its access level, which the example shows as "read"', () => {
    const created = example('team-pipelines-create.json');
    expect(created.access_level).toBe('read');
    expect(presentTeamPipeline(result('read_only'), URLS)).toEqual({ ...created, access_level: 'read_only' });
  });

  it('builds pipeline_url on the configured API URL and writes created_at in ISO 8601 with ms and Z', () => {
    const wire = presentTeamPipeline(
      { ...result('build_and_read'), organizationSlug: 'acme', pipelineSlug: 'web' },
      { api: 'https://api.ci.test' },
    );
    expect(wire.pipeline_url).toBe('https://api.ci.test/v2/organizations/acme/pipelines/web');
    expect(wire.created_at).toMatch(ISO_MS_Z);
    expect(TeamPipelineWire.parse(wire)).toEqual(wire);
  });

  it('presents a list in order, as the list example', () => {
    const list = presentTeamPipelines([result('manage_build_and_read')], URLS);
    expect(list).toEqual(read('team-pipelines-list.json'));
    expect(presentTeamPipelines([], URLS)).toEqual([]);
  });
});
