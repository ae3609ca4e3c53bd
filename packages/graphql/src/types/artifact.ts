import type { ArtifactsFilter } from '@ci/application';
import type { Artifact, ArtifactState } from '@ci/domain';
import DataLoader from 'dataloader';
import { builder, type GraphqlContext } from '../builder';
import { arrayConnection } from '../connection';
import { JobNode } from './job-node';
import { BuildRef, JobTypeCommandRef } from './refs';
import { ConnectionInterface } from './scalars';

builder.scalarType('JSInt', {
  description: 'A whole number that may pass 32 bits (up to 2^53 - 1), as a JSON number',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      throw new TypeError('JSInt must be a whole number');
    return value;
  },
});

export const ArtifactStates = builder.enumType('ArtifactStates', {
  description: 'All the states an artifact can be in',
  values: {
    NEW: { value: 'new' },
    FINISHED: { value: 'finished' },
    ERROR: { value: 'error' },
    DELETED: { value: 'deleted', description: 'Never shown: a deleted artifact is gone' },
    EXPIRED: { value: 'expired', description: 'Never shown: artifacts do not expire here' },
  },
});

export const ArtifactRef = builder.objectRef<Artifact>('Artifact');
builder.node(ArtifactRef, {
  description: 'A file uploaded from a job',
  id: { resolve: (artifact) => artifact.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: (artifact) => artifact.id }),
    path: t.exposeString('path', { nullable: false }),
    mimeType: t.exposeString('mimeType', { nullable: false }),
    size: t.field({ type: 'JSInt', nullable: false, resolve: (artifact) => artifact.fileSize }),
    sha1sum: t.exposeString('sha1sum', { nullable: false }),
    sha256sum: t.exposeString('sha256sum', { nullable: true }),
    state: t.string({ nullable: false, resolve: (artifact) => artifact.state.toUpperCase() }),
    downloadURL: t.string({
      nullable: false,
      description: 'A signed address of the bytes, valid for a while',
      resolve: async (artifact, _args, ctx) => (await ctx.useCases.byId.artifactDownloadUrl(artifact)).url,
    }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: () => null }),
    job: t.field({
      type: JobTypeCommandRef,
      nullable: true,
      resolve: async (artifact, _args, ctx) => JobNode.of(await ctx.loaders.jobs.load(artifact.jobId)),
    }),
  }),
});

const ArtifactConnection = builder.connectionObject(
  { type: ArtifactRef, name: 'ArtifactConnection', interfaces: [ConnectionInterface] },
  { name: 'ArtifactEdge' },
);

type Parent = 'jobs' | 'builds';

/**
 * This request's artifact loaders, one per parent kind and filter: the artifacts of every job (or build)
 * a page shows are read in one statement, not one per parent.
 */
const loadersOf = new WeakMap<GraphqlContext, Map<string, DataLoader<string, Artifact[]>>>();
function artifactLoader(ctx: GraphqlContext, parent: Parent, filter: ArtifactsFilter) {
  const loaders = loadersOf.get(ctx) ?? new Map<string, DataLoader<string, Artifact[]>>();
  loadersOf.set(ctx, loaders);
  const key = `${parent}:${filter.state ?? ''}:${filter.path ?? ''}`;
  let loader = loaders.get(key);
  if (!loader) {
    const read = parent === 'jobs' ? ctx.useCases.byId.artifactsOfJobs : ctx.useCases.byId.artifactsOfBuilds;
    loader = new DataLoader((ids: readonly string[]) => read(ctx.actor, ids, filter));
    loaders.set(key, loader);
  }
  return loader;
}

// As in the reference: `first`, `last`, `path` and `state`, no cursors.
builder.objectFields(JobTypeCommandRef, (t) => ({
  artifacts: t.field({
    type: ArtifactConnection,
    nullable: true,
    description: "The job's artifacts, oldest first",
    args: {
      first: t.arg.int({ required: false }),
      last: t.arg.int({ required: false }),
      path: t.arg.string({ required: false, description: 'a glob over the path, or a path' }),
      state: t.arg({ type: ArtifactStates, required: false }),
    },
    resolve: async (job, args, ctx) =>
      arrayConnection(
        { first: args.first, last: args.last },
        await artifactLoader(ctx, 'jobs', {
          path: args.path ?? null,
          state: (args.state as ArtifactState | null | undefined) ?? null,
        }).load(job.job.id),
      ),
  }),
}));

builder.objectFields(BuildRef, (t) => ({
  artifacts: t.connection(
    {
      type: ArtifactRef,
      description: "The build's artifacts, oldest first (not in the public schema, which lists them by job)",
      args: {
        path: t.arg.string({ required: false, description: 'a glob over the path, or a path' }),
        state: t.arg({ type: ArtifactStates, required: false }),
      },
      resolve: async (build, args, ctx) =>
        arrayConnection(
          args,
          await artifactLoader(ctx, 'builds', {
            path: args.path ?? null,
            state: (args.state as ArtifactState | null | undefined) ?? null,
          }).load(build.view.build.id),
        ),
    },
    ArtifactConnection,
  ),
}));
