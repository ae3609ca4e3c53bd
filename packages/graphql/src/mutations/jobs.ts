import { uuidOf } from '../global-id';
import { JobNode } from '../types/job-node';
import { JobTypeBlockRef, JobTypeCommandRef } from '../types/refs';
import { publicMutation } from './client-mutation-id';

publicMutation('jobTypeBlockUnblock', {
  description: 'Unblocks a build\'s "Block pipeline" job.',
  inputFields: (t) => ({
    fields: t.field({
      type: 'JSON',
      description: "Hash of values for the block step's fields (ignored, as REST's `fields`)",
    }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    job: await ctx.useCases.byId.unblockJob(ctx.actor, uuidOf(input.id, 'Job')),
  }),
  payloadFields: (t) => ({
    jobTypeBlock: t.field({
      type: JobTypeBlockRef,
      nullable: false,
      resolve: (payload) => JobNode.of(payload.job),
    }),
  }),
});

publicMutation('jobTypeCommandRetry', {
  description: 'Retry a job.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: (input, ctx) => ctx.useCases.byId.retryJob(ctx.actor, uuidOf(input.id, 'Job')),
  payloadFields: (t) => ({
    jobTypeCommand: t.field({
      type: JobTypeCommandRef,
      nullable: false,
      description: 'The job that was retried',
      resolve: (payload) => JobNode.of(payload.job),
    }),
    retriedInJobTypeCommand: t.field({
      type: JobTypeCommandRef,
      nullable: false,
      description: 'Its new run',
      resolve: (payload) => JobNode.of(payload.retry),
    }),
  }),
});

publicMutation('jobTypeCommandCancel', {
  description: 'Cancel a job.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => ({
    job: await ctx.useCases.byId.cancelJob(ctx.actor, uuidOf(input.id, 'Job')),
  }),
  payloadFields: (t) => ({
    jobTypeCommand: t.field({
      type: JobTypeCommandRef,
      nullable: false,
      resolve: (payload) => JobNode.of(payload.job),
    }),
  }),
});
