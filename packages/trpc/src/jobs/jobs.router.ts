import type { JobInBuild, JobRef } from '@ci/application';
import {
  encodeGraphqlId,
  formatTimestamp,
  isUnblockable,
  jobEnvironment,
  parseBuildNumber,
} from '@ci/domain';
import { z } from 'zod';
import { apiAddresses } from '../api-addresses';
import { presentJob } from '../builds/build.presenter';
import { JobWire } from '../builds/build.wire';
import { documented } from '../documented';
import { organizationSlug } from '../parameters';
import { authed, router, type TrpcContext } from '../trpc';
import { presentUser } from '../users/user.presenter';
import { BlockFieldWire, JobEnvWire, JobLogWire, UnblockedJobWire } from './job.wire';

const JOB = '/organizations/{organization}/pipelines/{pipeline}/builds/{number}/jobs/{job}';
const TAGS = ['Jobs'];

const JobKey = z.object({
  organization: organizationSlug,
  pipeline: z.string().meta({ description: 'pipeline slug' }),
  number: z.string().meta({ description: 'build number' }),
  job: z.string().meta({ description: 'job id' }),
});

/** The block step's field values: they become the build's meta-data, as in the public service. */
const UnblockInput = JobKey.extend({
  fields: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: "the block step's field values by key, kept as the build's meta-data" }),
});

const jobRef = (input: z.infer<typeof JobKey>): JobRef => ({
  organization: input.organization,
  pipeline: input.pipeline,
  number: parseBuildNumber(input.number),
  job: input.job,
});

function jobApiUrl(ctx: TrpcContext, input: z.infer<typeof JobKey>, result: JobInBuild) {
  const { organizationSlug, pipeline, build } = result.build.view;
  return apiAddresses.job(
    apiAddresses.build(ctx.urls.api, organizationSlug, pipeline.slug, build.number),
    input.job,
  );
}

async function log(
  ctx: TrpcContext & { actor: Parameters<TrpcContext['useCases']['getJobLog']>[0] },
  input: z.infer<typeof JobKey>,
  raw: boolean,
) {
  const result = await ctx.useCases.getJobLog(ctx.actor, jobRef(input));
  // The raw form: `log.txt`, or `Accept: text/plain` on `log`.
  if (ctx.rest && (raw || /\btext\/plain\b/.test(ctx.rest.accept ?? '')))
    ctx.response.text = result.log.content;
  return {
    url: `${jobApiUrl(ctx, input, result)}/log`,
    content: result.log.content,
    size: result.log.size,
    header_times: result.log.headerTimes,
  };
}

export const jobsRouter = router({
  log: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${JOB}/log`,
        tags: TAGS,
        summary: "Get a job's log output (JSON; `Accept: text/plain` gives the raw text)",
      },
      operation: 'getJobLog',
    })
    .input(JobKey)
    .output(documented(JobLogWire))
    .query(({ ctx, input }) => log(ctx, input, false)),

  /**
   * The CLI's `build watch`: the log's chunks after `after_sequence` (-1: from the start), a page at a
   * time, and whether the page ends a finished job's log. Not part of REST (no `openapi`), whose log is
   * read only whole.
   */
  logAfter: authed
    .meta({ operation: 'getJobLog' })
    .input(JobKey.extend({ after_sequence: z.number().int().min(-1) }))
    .output(z.object({ content: z.string(), last_sequence: z.number().int(), finished: z.boolean() }))
    .query(async ({ ctx, input }) => {
      const { read } = await ctx.useCases.followJobLog(ctx.actor, jobRef(input));
      const page = await read(input.after_sequence);
      return {
        content: page.chunks.map((chunk) => chunk.content).join(''),
        last_sequence: page.chunks.at(-1)?.sequence ?? input.after_sequence,
        finished: page.finished,
      };
    }),

  deleteLog: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: `${JOB}/log`,
        tags: TAGS,
        summary: "Delete a job's log output",
      },
      operation: 'deleteJobLog',
      successStatus: 204,
    })
    .input(JobKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteJobLog(ctx.actor, jobRef(input));
    }),

  logText: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${JOB}/log.txt`,
        tags: TAGS,
        summary: "Get a job's log output as text/plain (over tRPC: the JSON form)",
      },
      operation: 'getJobLog',
    })
    .input(JobKey)
    .output(documented(JobLogWire))
    .query(({ ctx, input }) => log(ctx, input, true)),

  env: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${JOB}/env`,
        tags: TAGS,
        summary: "Get a job's environment variables",
      },
      operation: 'getJobEnv',
    })
    .input(JobKey)
    .output(documented(JobEnvWire))
    .query(async ({ ctx, input }) => {
      const result = await ctx.useCases.getJobEnv(ctx.actor, jobRef(input));
      const env = jobEnvironment({
        ...result.build.view,
        job: result.job.job,
        agentName: result.job.agent?.name ?? null,
        web: ctx.urls.web,
      });
      return { env };
    }),

  retry: authed
    .meta({
      openapi: { method: 'PUT', path: `${JOB}/retry`, tags: TAGS, summary: 'Retry a job' },
      operation: 'retryJob',
    })
    .input(JobKey)
    .output(documented(JobWire))
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.useCases.retryJob(ctx.actor, jobRef(input));
      return presentJob(result.build, result.job, ctx.urls);
    }),

  /** The web's unblock form: not part of REST (no `openapi`), whose jobs do not show their fields. */
  blockFields: authed
    .meta({ operation: 'getBuild' })
    .input(JobKey)
    .output(z.array(BlockFieldWire))
    .query(({ ctx, input }) => ctx.useCases.getBlockFields(ctx.actor, jobRef(input))),

  unblock: authed
    .meta({
      openapi: { method: 'PUT', path: `${JOB}/unblock`, tags: TAGS, summary: 'Unblock a job' },
      operation: 'unblockJob',
    })
    .input(UnblockInput)
    .output(documented(UnblockedJobWire))
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.useCases.unblockJob(ctx.actor, jobRef(input), input.fields);
      const { job } = result.job;
      const unblockedBy = job.unblockedById === ctx.actor.user.id ? ctx.actor.user : null;
      return {
        id: job.id,
        graphql_id: encodeGraphqlId('Job', job.id),
        type: 'manual' as const,
        label: job.name,
        state: job.state,
        step_key: job.stepKey,
        web_url: null,
        unblocked_by: unblockedBy ? presentUser(unblockedBy) : null,
        unblocked_at: formatTimestamp(job.unblockedAt),
        unblockable: isUnblockable(job),
        unblock_url: `${jobApiUrl(ctx, input, result)}/unblock`,
      };
    }),
});
