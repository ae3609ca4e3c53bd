import type { Pipeline } from './entities';

/** A pipeline for tests: `app` of organization `o`, on GitHub, with one environment variable. */
export function pipelineWith(overrides: Partial<Pipeline> = {}): Pipeline {
  return {
    id: 'pipeline-1',
    organizationId: 'o',
    slug: 'app',
    name: 'App',
    description: null,
    repository: 'git@github.com:acme/app.git',
    defaultBranch: 'main',
    branchConfiguration: null,
    steps: [],
    provider: { id: 'github', settings: {} },
    webhookToken: 't',
    skipQueuedBranchBuilds: false,
    skipQueuedBranchBuildsFilter: null,
    cancelRunningBranchBuilds: false,
    cancelRunningBranchBuildsFilter: null,
    nextBuildNumber: 2,
    archivedAt: null,
    createdAt: new Date(0),
    env: { SHARED: 'pipeline', ONLY_PIPELINE: '1' },
    visibility: 'private',
    tags: null,
    clusterId: null,
    allowRebuilds: true,
    color: null,
    emoji: null,
    defaultTimeoutInMinutes: null,
    maximumTimeoutInMinutes: null,
    pipelineTemplateId: null,
    configuration: null,
    createdById: null,
    ...overrides,
  };
}
