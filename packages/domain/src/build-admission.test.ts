import { describe, expect, it } from 'vitest';
import { newBuildRefusal, rebuildRefusal } from './build-admission';
import type { Pipeline } from './entities';

type Admitting = Pick<Pipeline, 'archivedAt' | 'branchConfiguration' | 'allowRebuilds'>;

const open: Admitting = { archivedAt: null, branchConfiguration: 'main release/*', allowRebuilds: true };
const archived: Admitting = { ...open, archivedAt: new Date(0) };

describe('newBuildRefusal', () => {
  it.each<[string, Admitting, { branch: string; ignorePipelineBranchFilters: boolean }, string | null]>([
    [
      'takes a branch the filter lets through',
      open,
      { branch: 'release/1', ignorePipelineBranchFilters: false },
      null,
    ],
    [
      'refuses a branch outside the filter',
      open,
      { branch: 'feature', ignorePipelineBranchFilters: false },
      'branch_filtered',
    ],
    [
      'takes a branch outside the filter when told to ignore it',
      open,
      { branch: 'feature', ignorePipelineBranchFilters: true },
      null,
    ],
    [
      'takes any branch without a filter',
      { ...open, branchConfiguration: null },
      { branch: 'feature', ignorePipelineBranchFilters: false },
      null,
    ],
    [
      'refuses an archived pipeline before the filter',
      archived,
      { branch: 'feature', ignorePipelineBranchFilters: false },
      'pipeline_archived',
    ],
    [
      'refuses an archived pipeline even when the filter is ignored',
      archived,
      { branch: 'main', ignorePipelineBranchFilters: true },
      'pipeline_archived',
    ],
  ])('%s', (_case, pipeline, request, code) => {
    expect(newBuildRefusal(pipeline, request)?.code ?? null).toBe(code);
  });

  it('names the branch and the filter', () => {
    expect(newBuildRefusal(open, { branch: 'x', ignorePipelineBranchFilters: false })).toMatchObject({
      kind: 'unprocessable',
      message: 'Branch "x" does not match the pipeline\'s branch filter "main release/*"',
    });
  });
});

describe('rebuildRefusal', () => {
  it.each<[string, Admitting, string | null]>([
    ['takes a rebuild', open, null],
    ['refuses when rebuilds are off', { ...open, allowRebuilds: false }, 'rebuilds_disabled'],
    ['refuses an archived pipeline first', { ...archived, allowRebuilds: false }, 'pipeline_archived'],
    ['does not ask the branch filter again', { ...open, branchConfiguration: 'nothing-matches' }, null],
  ])('%s', (_case, pipeline, code) => {
    expect(rebuildRefusal(pipeline)?.code ?? null).toBe(code);
  });
});
