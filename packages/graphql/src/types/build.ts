import type { BuildFilter } from '@ci/application';
import { type BuildSource, type BuildState, badRequest, webAddresses } from '@ci/domain';
import { builder } from '../builder';
import { arrayConnection } from '../connection';
import { parseKeyValues } from '../key-values';
import { BuildNode } from './build-node';
import { JobConnection, JobStates, JobTypes, JobUnion } from './job';
import { JobNode, type JobStateName } from './job-node';
import { OrganizationRef, organizationOf } from './organization';
import { BuildRef, JobTypeTriggerRef, PipelineRef, type PipelineShape } from './refs';
import { ConnectionInterface } from './scalars';
import { BuildCreator, UserRef } from './user';
import { ViewerRef } from './viewer';

/**
 * The public API's build states. A blocked build is `BLOCKED` here, with `blockedState` telling the
 * state it reports over REST (rule B1 is REST's). The reference's `CREATING` is left out: builds are
 * created in one statement, so none is ever seen being created, and no filter could match it.
 */
export const BuildStates = builder.enumType('BuildStates', {
  description: 'All the possible states a build can be in',
  values: {
    BLOCKED: { value: 'blocked' },
    CANCELED: { value: 'canceled' },
    CANCELING: { value: 'canceling' },
    FAILED: { value: 'failed' },
    FAILING: { value: 'failing' },
    NOT_RUN: { value: 'not_run' },
    PASSED: { value: 'passed' },
    RUNNING: { value: 'running' },
    SCHEDULED: { value: 'scheduled' },
    SKIPPED: { value: 'skipped' },
  } as const satisfies Record<string, { value: BuildState }>,
});

const BuildBlockedStates = builder.enumType('BuildBlockedStates', {
  description: 'All the possible blocked states a build can be in',
  values: {
    FAILED: { value: 'failed' },
    PASSED: { value: 'passed' },
    RUNNING: { value: 'running' },
  } as const,
});

const BuildSourceInterface = builder.interfaceRef<{ source: BuildSource }>('BuildSource').implement({
  fields: (t) => ({
    name: t.string({
      nullable: false,
      description: "How the build was created: REST's `source` (api, webhook, ui, schedule, trigger_job)",
      resolve: ({ source }) => source,
    }),
  }),
});

const SOURCE_TYPES = {
  api: 'BuildSourceAPI',
  webhook: 'BuildSourceWebhook',
  ui: 'BuildSourceFrontend',
  schedule: 'BuildSourceSchedule',
  trigger_job: 'BuildSourceTriggerJob',
} as const satisfies Record<BuildSource, string>;

export const BuildSourceScheduleRef = builder.objectRef<{ source: BuildSource; buildId: string }>(
  SOURCE_TYPES.schedule,
);
for (const [source, name] of Object.entries(SOURCE_TYPES)) {
  const ref =
    source === 'schedule' ? BuildSourceScheduleRef : builder.objectRef<{ source: BuildSource }>(name);
  ref.implement({
    interfaces: [BuildSourceInterface],
    isTypeOf: (value) => (value as { source: BuildSource }).source === source,
  });
}

const PullRequest = builder.objectRef<{ id: string }>('PullRequest').implement({
  description: 'A pull request on a provider',
  fields: (t) => ({ id: t.exposeString('id', { nullable: false }) }),
});

const BuildMetaData = builder.objectRef<{ key: string; value: string }>('BuildMetaData').implement({
  description: 'A meta-data key and value of a build',
  fields: (t) => ({
    key: t.exposeString('key', { nullable: false }),
    value: t.exposeString('value', { nullable: false }),
  }),
});

const BuildMetaDataConnection = builder.connectionObject(
  { type: BuildMetaData, name: 'BuildMetaDataConnection', interfaces: [ConnectionInterface] },
  { name: 'BuildMetaDataEdge' },
);

const JobStepSearch = builder.inputType('JobStepSearch', {
  description: 'Searching for jobs based on related step information',
  fields: (t) => ({ key: t.stringList({ required: false, description: 'The key assigned to the step' }) }),
});

function jobsMatching(
  jobs: JobNode[],
  filter: {
    state?: readonly JobStateName[] | null;
    type?: readonly string[] | null;
    step?: { key?: readonly string[] | null } | null;
    agentQueryRules?: readonly string[] | null;
  },
): JobNode[] {
  return jobs.filter(
    ({ job, state }) =>
      // The latest run of each step, as REST's default (a job found by uuid loads its retried runs too).
      !job.retried &&
      (!filter.state || filter.state.includes(state)) &&
      (!filter.type || filter.type.includes(job.type)) &&
      (!filter.step?.key || (job.stepKey !== null && filter.step.key.includes(job.stepKey))) &&
      (!filter.agentQueryRules || filter.agentQueryRules.every((rule) => job.agentQueryRules.includes(rule))),
  );
}

builder.node(BuildRef, {
  description: 'A build from a pipeline',
  id: { resolve: ({ view }) => view.build.id },
  extensions: { idReadInPlace: true },
  fields: (t) => ({
    uuid: t.exposeString('uuid', { nullable: false }),
    number: t.exposeInt('number', { nullable: false }),
    state: t.expose('state', { type: BuildStates, nullable: false }),
    blocked: t.exposeBoolean('blocked', {
      nullable: false,
      description: 'Whether the build is blocked (an extension: REST `blocked`)',
    }),
    blockedState: t.expose('blockedState', {
      type: BuildBlockedStates,
      nullable: true,
      description: 'The state a blocked build reports (rule B1)',
    }),
    message: t.exposeString('message', { nullable: true }),
    commit: t.exposeString('commit', { nullable: false }),
    branch: t.exposeString('branch', { nullable: false }),
    cancelReason: t.exposeString('cancelReason', { nullable: true }),
    env: t.exposeStringList('env', { nullable: true }),
    source: t.expose('source', { type: BuildSourceInterface, nullable: false }),
    url: t.string({
      nullable: false,
      description: "The build's address (REST `web_url`)",
      resolve: ({ view }, _args, ctx) =>
        webAddresses.build(ctx.urls.web, view.organizationSlug, view.pipeline.slug, view.build.number),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime', nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    failingAt: t.expose('failingAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    canceledAt: t.expose('canceledAt', { type: 'DateTime', nullable: true }),
    pullRequest: t.expose('pullRequest', { type: PullRequest, nullable: true }),
    createdBy: t.expose('createdBy', {
      type: BuildCreator,
      nullable: true,
      description: 'The user who created the build, else the author it was created with',
    }),
    pipeline: t.expose('pipeline', { type: PipelineRef, nullable: false }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: ({ view }, _args, ctx) => organizationOf(view.pipeline.organizationId, ctx),
    }),
    rebuiltFrom: t.field({
      type: BuildRef,
      nullable: true,
      description: 'The build that this build was rebuilt from',
      resolve: ({ view }, _args, ctx) =>
        view.rebuiltFrom ? ctx.loaders.builds.load(view.rebuiltFrom.id) : null,
    }),
    triggeredFrom: t.field({
      type: JobTypeTriggerRef,
      nullable: true,
      description:
        'The trigger job that created this build (null: no trigger step did, or it is not readable)',
      resolve: ({ view }, _args, ctx) =>
        view.triggeredFrom ? ctx.loaders.jobs.load(view.triggeredFrom.jobId) : null,
    }),
    metaData: t.field({
      type: BuildMetaDataConnection,
      nullable: true,
      description: 'The meta-data of the build, by key',
      // As in the reference: a meta-data list takes first/last only.
      args: { first: t.arg.int({ required: false }), last: t.arg.int({ required: false }) },
      resolve: ({ view }, args) =>
        arrayConnection(
          args,
          Object.entries(view.build.metaData).map(([key, value]) => ({ key, value })),
        ),
    }),
    jobs: t.connection(
      {
        type: JobUnion,
        description: "The build's jobs in pipeline order (its latest runs, as REST)",
        args: {
          state: t.arg({ type: [JobStates], required: false }),
          type: t.arg({ type: [JobTypes], required: false }),
          step: t.arg({ type: JobStepSearch, required: false }),
          agentQueryRules: t.arg.stringList({ required: false }),
        },
        resolve: (build, args) =>
          arrayConnection(
            args,
            jobsMatching(
              build.view.jobs.map((job) => new JobNode(job, build)),
              args,
            ),
          ),
      },
      JobConnection,
    ),
  }),
});

export const BuildConnection = builder.connectionObject(
  { type: BuildRef, name: 'BuildConnection', interfaces: [ConnectionInterface] },
  { name: 'BuildEdge' },
);

/** GraphQL's `["key=value"]` meta-data filter as the REST filter's object. */
const metaDataFilter = (entries: readonly string[]) =>
  parseKeyValues(entries, (entry) =>
    badRequest('invalid_meta_data', `metaData filters are "key=value", got "${entry}"`),
  );

/** The filters of the build lists, in the reference's names, as the REST list's filter. */
function buildFilter(args: {
  branch?: readonly string[] | null;
  commit?: readonly string[] | null;
  createdAtFrom?: Date | null;
  createdAtTo?: Date | null;
  metaData?: readonly string[] | null;
  state?: readonly BuildState[] | null;
}): BuildFilter {
  const branches = args.branch?.filter((branch) => branch !== '%default');
  return {
    ...(branches?.length ? { branches } : {}),
    ...(args.branch?.includes('%default') ? { defaultBranch: true } : {}),
    ...(args.commit ? { commits: [...args.commit] } : {}),
    ...(args.createdAtFrom ? { createdFrom: args.createdAtFrom } : {}),
    ...(args.createdAtTo ? { createdTo: args.createdAtTo } : {}),
    ...(args.metaData ? { metaData: metaDataFilter(args.metaData) } : {}),
    ...(args.state ? { states: [...args.state] } : {}),
  };
}

builder.objectField(PipelineRef, 'builds', (t) =>
  t.connection(
    {
      type: BuildRef,
      description:
        'The builds of this pipeline, newest first (as the REST list, with its filters), read for a page of pipelines at once',
      args: {
        branch: t.arg.stringList({ required: false, description: 'Use `%default` for the default branch' }),
        commit: t.arg.stringList({ required: false }),
        createdAtFrom: t.arg({ type: 'DateTime', required: false }),
        createdAtTo: t.arg({ type: 'DateTime', required: false }),
        metaData: t.arg.stringList({ required: false }),
        state: t.arg({ type: [BuildStates], required: false }),
      },
      resolve: (parent, args, ctx, info) => {
        const filter = buildFilter(args);
        // The parents go to the use case as they are: one whose access this request decided keeps it.
        return ctx.loaders
          .connection({
            field: 'Pipeline.builds',
            args,
            info,
            idOf: (shape: PipelineShape) => shape.pipeline.id,
            read: async (requests, parents) =>
              BuildNode.parts(
                await ctx.useCases.byId.buildsOfPipelines(ctx.actor, requests, filter, parents),
              ),
          })
          .load(parent);
      },
    },
    BuildConnection,
  ),
);

builder.objectField(UserRef, 'builds', (t) =>
  t.field({
    type: BuildConnection,
    nullable: true,
    description:
      'The builds this user created that the viewer may see, newest first, read for a page of users at once',
    // As in the reference: a user's builds take first/last only, and filters.
    args: {
      branch: t.arg.stringList({ required: false, description: 'Use `%default` for the default branch' }),
      first: t.arg.int({ required: false }),
      last: t.arg.int({ required: false }),
      metaData: t.arg.stringList({ required: false }),
      state: t.arg({ type: [BuildStates], required: false }),
    },
    resolve: (user, args, ctx, info) => {
      const filter = buildFilter(args);
      return ctx.loaders
        .connection({
          field: 'User.builds',
          args,
          info,
          idOf: (id: string) => id,
          read: async (requests) =>
            BuildNode.parts(await ctx.useCases.byId.buildsOfCreators(ctx.actor, requests, filter)),
        })
        .load(user.id);
    },
  }),
);

builder.objectField(ViewerRef, 'builds', (t) =>
  t.field({
    type: BuildConnection,
    nullable: true,
    description: 'The builds the current user created, newest first',
    // As in the reference: the viewer's builds take one branch, first/last only, and filters.
    args: {
      branch: t.arg.string({ required: false, description: 'Use `%default` for the default branch' }),
      first: t.arg.int({ required: false }),
      last: t.arg.int({ required: false }),
      metaData: t.arg.stringList({ required: false }),
      state: t.arg({ type: [BuildStates], required: false }),
    },
    resolve: ({ viewer }, args, ctx, info) => {
      // The user's builds with one branch, so that `viewer { builds user { builds } }` reads them once.
      const asUserArgs = { ...args, branch: args.branch ? [args.branch] : null };
      const filter = buildFilter(asUserArgs);
      return ctx.loaders
        .connection({
          field: 'User.builds',
          args: asUserArgs,
          info,
          idOf: (id: string) => id,
          read: async (requests) =>
            BuildNode.parts(await ctx.useCases.byId.buildsOfCreators(ctx.actor, requests, filter)),
        })
        .load(viewer.id);
    },
  }),
);
