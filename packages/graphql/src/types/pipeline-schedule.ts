import type { PipelineScheduleView } from '@ci/application';
import { allows } from '@ci/domain';
import { builder } from '../builder';
import { arrayConnection, resolveConnection } from '../connection';
import { asKeyValues } from '../key-values';
import { BuildConnection, BuildSourceScheduleRef } from './build';
import { BuildNode } from './build-node';
import { ALLOWED, PermissionRef, type PermissionShape } from './permission';
import { PipelineNode } from './pipeline-node';
import { BuildRef, PipelineRef, type PipelineShape } from './refs';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const PipelineScheduleRef = builder.objectRef<PipelineScheduleView>('PipelineSchedule');

const MAY_NOT_MANAGE: PermissionShape = {
  allowed: false,
  code: 'forbidden',
  message: 'Only those who may edit the pipeline may change its schedules',
};

const PipelineSchedulePermissions = builder
  .objectRef<PipelineScheduleView>('PipelineSchedulePermissions')
  .implement({
    description: 'What the viewer may do with a pipeline schedule',
    fields: (t) => ({
      pipelineScheduleUpdate: t.field({
        type: PermissionRef,
        nullable: true,
        resolve: (view) => (view.mayManage ? ALLOWED : MAY_NOT_MANAGE),
      }),
      pipelineScheduleDelete: t.field({
        type: PermissionRef,
        nullable: true,
        resolve: (view) => (view.mayManage ? ALLOWED : MAY_NOT_MANAGE),
      }),
    }),
  });

builder.node(PipelineScheduleRef, {
  description: 'A schedule of builds of a pipeline, at the times of a cron expression',
  id: { resolve: ({ schedule }) => schedule.id },
  fields: (t) => ({
    uuid: t.string({ nullable: false, resolve: ({ schedule }) => schedule.id }),
    label: t.string({ nullable: false, resolve: ({ schedule }) => schedule.label }),
    cronline: t.string({
      nullable: false,
      description: 'Five cron fields or a nickname (`@daily`), then an optional time zone (UTC)',
      resolve: ({ schedule }) => schedule.cronline,
    }),
    branch: t.string({ nullable: true, resolve: ({ schedule }) => schedule.branch }),
    commit: t.string({ nullable: true, resolve: ({ schedule }) => schedule.commit }),
    message: t.string({ nullable: true, resolve: ({ schedule }) => schedule.message }),
    env: t.stringList({
      nullable: true,
      description: 'The environment of its builds, as `KEY=value`',
      resolve: ({ schedule }) => asKeyValues(schedule.env),
    }),
    enabled: t.boolean({ nullable: true, resolve: ({ schedule }) => schedule.enabled }),
    nextBuildAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The tick the next build is for; null while disabled',
      resolve: ({ schedule }) => schedule.nextBuildAt,
    }),
    failedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ schedule }) => schedule.failedAt }),
    failedMessage: t.string({ nullable: true, resolve: ({ schedule }) => schedule.failedMessage }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ schedule }) => schedule.createdAt }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: ({ schedule }, _args, ctx) =>
        schedule.createdById ? ctx.loaders.people.load(schedule.createdById) : null,
    }),
    pipeline: t.field({
      type: PipelineRef,
      nullable: true,
      resolve: async ({ schedule }, _args, ctx) =>
        PipelineNode.of(await ctx.loaders.pipelines.load(schedule.pipelineId)),
    }),
    permissions: t.field({ type: PipelineSchedulePermissions, nullable: false, resolve: (view) => view }),
    builds: t.connection(
      {
        type: BuildRef,
        nullable: true,
        description: 'The builds the schedule made, newest first',
        resolve: ({ schedule }, args, ctx) =>
          resolveConnection(args, async (window) => {
            const { ids, totalCount } = await ctx.useCases.byId.buildsOfSchedule(
              ctx.actor,
              schedule.id,
              window,
            );
            const builds = await ctx.loaders.builds.loadMany(ids);
            return {
              items: builds.filter((build): build is BuildNode => build instanceof BuildNode),
              totalCount,
            };
          }),
      },
      BuildConnection,
    ),
  }),
});

export const PipelineScheduleEdgeRef = builder.edgeObject({
  type: PipelineScheduleRef,
  name: 'PipelineScheduleEdge',
});

export const PipelineScheduleConnection = builder.connectionObject(
  { type: PipelineScheduleRef, name: 'PipelineScheduleConnection', interfaces: [ConnectionInterface] },
  PipelineScheduleEdgeRef,
);

builder.objectField(PipelineRef, 'schedules', (t) =>
  t.field({
    type: PipelineScheduleConnection,
    nullable: true,
    description:
      "The pipeline's schedules, oldest first (`read_pipelines`), read for a page of pipelines at once",
    // As in the reference: `first` only.
    args: { first: t.arg.int({ required: false }) },
    resolve: async (node: PipelineShape, args, ctx) =>
      arrayConnection(args, await ctx.loaders.schedulesOfPipelines.load(node.pipeline.id)),
  }),
);

const PipelinePermissions = builder.objectRef<PipelineShape>('PipelinePermissions').implement({
  description: 'What the viewer may do with a pipeline',
  fields: (t) => {
    const permission = (action: 'build' | 'manage', message: string) =>
      t.field({
        type: PermissionRef,
        nullable: false,
        resolve: async (node, _args, ctx) =>
          allows(await ctx.loaders.pipelineAccess.load(node.pipeline), action)
            ? ALLOWED
            : { allowed: false, code: 'forbidden', message },
      });
    return {
      buildCreate: permission('build', 'You may not create builds of this pipeline'),
      pipelineUpdate: permission('manage', 'You may not edit this pipeline'),
      pipelineScheduleCreate: permission('manage', 'You may not add schedules to this pipeline'),
    };
  },
});

builder.objectField(PipelineRef, 'permissions', (t) =>
  t.field({ type: PipelinePermissions, nullable: false, resolve: (node) => node }),
);

builder.queryField('pipelineSchedule', (t) =>
  t.field({
    type: PipelineScheduleRef,
    nullable: true,
    description: 'Find a pipeline schedule by its slug: `organization/pipeline/schedule-uuid`',
    args: { slug: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findPipelineScheduleBySlug(ctx.actor, args.slug),
  }),
);

builder.objectField(BuildSourceScheduleRef, 'pipelineSchedule', (t) =>
  t.field({
    type: PipelineScheduleRef,
    nullable: true,
    description: 'The schedule that made the build (null: since deleted)',
    resolve: async ({ buildId }, _args, ctx) => {
      const scheduleId = await ctx.loaders.scheduleOfBuild.load(buildId);
      return scheduleId ? ctx.loaders.pipelineSchedules.load(scheduleId) : null;
    },
  }),
);
