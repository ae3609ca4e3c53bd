import { isJsonObject } from '@ci/domain';
import { uuidOf } from '../global-id';
import { JobNode } from '../types/job-node';
import { JobTypeBlockRef, JobTypeCommandRef } from '../types/refs';
import { publicMutation } from './client-mutation-id';

/** The block step's values as REST takes them: an object's string (or number, boolean) members. */
function fieldValues(fields: unknown): Record<string, string> | undefined {
  if (!isJsonObject(fields)) return undefined;
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      values[key] = String(value);
    }
  }
  return values;
}

publicMutation('jobTypeBlockUnblock', {
  description: 'Unblocks a build\'s "Block pipeline" job.',
  inputFields: (t) => ({
    fields: t.field({
      type: 'JSON',
      description:
        "Hash of values for the block step's fields by key, which become the build's meta-data (as REST's `fields`)",
    }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    job: await ctx.useCases.byId.unblockJob(ctx.actor, uuidOf(input.id, 'Job'), fieldValues(input.fields)),
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
