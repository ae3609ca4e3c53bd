import { notFound } from '@ci/domain';
import { builder } from './builder';
import { JobUnion } from './types/job';
import { BuildRef } from './types/refs';
import { RegistryRef } from './types/registry';

builder.queryType({ description: 'The query root for this schema' });

builder.queryFields((t) => ({
  build: t.field({
    type: BuildRef,
    nullable: true,
    description: 'Find a build',
    args: {
      slug: t.arg.id({
        required: false,
        description:
          'The number of the build, prefixed with its organization and pipeline. i.e. `acme-inc/my-pipeline/123`',
      }),
      uuid: t.arg.id({ required: false, description: 'The UUID of the build' }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findBuild(ctx.actor, args),
  }),
  job: t.field({
    type: JobUnion,
    nullable: true,
    description: 'Find a build job',
    args: { uuid: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const job = await ctx.loaders.jobs.load(args.uuid);
      if (!job) throw notFound('job');
      return job;
    },
  }),
  registry: t.field({
    type: RegistryRef,
    nullable: true,
    description: 'Find a registry',
    args: {
      slug: t.arg.id({
        required: false,
        description: 'The slug of the registry, prefixed with its organization. i.e. `acme-inc/my-registry`',
      }),
      uuid: t.arg.id({ required: false, description: 'The UUID of the registry' }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findRegistry(ctx.actor, args),
  }),
}));
