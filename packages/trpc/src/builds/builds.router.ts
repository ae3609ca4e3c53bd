import type { BuildListTarget, BuildResult } from '@ci/application';
import { isDomainError, parseBuildNumber } from '@ci/domain';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { advertisePages, pageOf } from '../pagination';
import { flag, organizationSlug } from '../parameters';
import { ANSWERED_BY_REVISION, authed, revisionAnswers, router, type TrpcContext, tagAnswer } from '../trpc';
import { presentBuild, presentBuilds } from './build.presenter';
import { BuildWire, type CreateBuildRequest } from './build.wire';
import { type BuildListQuery, buildFilterOf, buildListParameters } from './build-list-query';

const ORGANIZATION = '/organizations/{organization}';
const PIPELINE = `${ORGANIZATION}/pipelines/{pipeline}`;
const BUILD = `${PIPELINE}/builds/{number}`;
const TAGS = ['Builds'];

const organization = organizationSlug;
const pipeline = z.string().meta({ description: 'pipeline slug' });
const number = z.string().meta({ description: 'build number' });

const AllBuildsInput = z.object(buildListParameters);
const OrganizationBuildsInput = z.object({ organization, ...buildListParameters });
const PipelineBuildsInput = z.object({ organization, pipeline, ...buildListParameters });
const BuildKey = z.object({ organization, pipeline, number });
/** The pipelines of a page of them (the web's organization page shows at most 100). */
const LatestOfPipelinesInput = z.object({ pipeline_ids: z.array(z.string()).max(100) });
const LatestOfPipelinesWire = z.array(z.object({ pipeline_id: z.string(), build: BuildWire.nullable() }));
const GetBuildInput = BuildKey.extend({ include_retried_jobs: flag('include every retried job execution') });

/**
 * The create body is validated by the domain (422 in the spec's shapes), so the run-time input passes it
 * through untouched; its type and its OpenAPI component are `CreateBuildRequest`.
 */
const CreateBuildInput = z.looseObject({ organization, pipeline }) as unknown as z.ZodType<
  { organization: string; pipeline: string } & CreateBuildRequest
>;

type Authed = TrpcContext & { actor: Parameters<TrpcContext['useCases']['listBuilds']>[0] };

/** A build list on either transport: its filters and page from the input, `Link` on REST, the builds presented. */
async function answerBuildList(ctx: Authed, query: BuildListQuery, target: BuildListTarget) {
  const filter = buildFilterOf(query);
  const page = pageOf(query);
  // A pipeline's builds: 304, or the cached page, while nothing on it changed (ADR 0016).
  const cacheable = target.kind === 'pipeline';
  const result = await ctx.useCases.listBuilds(
    ctx.actor,
    target,
    filter,
    page,
    cacheable ? revisionAnswers(ctx, { cacheable }) : undefined,
  );
  if (result.unchanged) return ANSWERED_BY_REVISION;
  tagAnswer(ctx, result.revision, { cacheable });
  advertisePages(ctx, page, result.totalCount);
  return presentBuilds(result.builds, {
    urls: ctx.urls,
    form: 'list',
    excludeJobs: query.exclude_jobs,
    excludePipeline: query.exclude_pipeline,
  });
}

const single = (ctx: Authed, result: BuildResult, options: { jobStateCounts?: boolean } = {}) =>
  presentBuild(result, { urls: ctx.urls, form: 'single', ...options });

const buildRef = (input: z.output<typeof BuildKey>) => ({
  organization: input.organization,
  pipeline: input.pipeline,
  number: parseBuildNumber(input.number),
});

export const buildsRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: '/builds', tags: TAGS, summary: 'List all builds' },
      operation: 'listBuilds',
    })
    .input(AllBuildsInput)
    .output(documentedList(BuildWire))
    .query(({ ctx, input }) => answerBuildList(ctx, input, { kind: 'all' })),

  listForOrganization: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${ORGANIZATION}/builds`,
        tags: TAGS,
        summary: 'List builds for an organization',
      },
      operation: 'listBuilds',
    })
    .input(OrganizationBuildsInput)
    .output(documentedList(BuildWire))
    .query(({ ctx, input }) =>
      answerBuildList(ctx, input, { kind: 'organization', organization: input.organization }),
    ),

  listForPipeline: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${PIPELINE}/builds`,
        tags: TAGS,
        summary: 'List builds for a pipeline',
      },
      operation: 'listBuilds',
      conditional: true,
    })
    .input(PipelineBuildsInput)
    .output(documentedList(BuildWire))
    .query(({ ctx, input }) =>
      answerBuildList(ctx, input, {
        kind: 'pipeline',
        organization: input.organization,
        pipeline: input.pipeline,
      }),
    ),

  /**
   * The web's organization page: the latest build of each of its pipelines in one call and one batched
   * read, instead of a pipeline's list per card. Not part of REST (no `openapi`). A pipeline the viewer
   * may not see is left out.
   */
  latestOfPipelines: authed
    .meta({ operation: 'listBuilds' })
    .input(LatestOfPipelinesInput)
    .output(LatestOfPipelinesWire)
    .query(async ({ ctx, input }) => {
      const requests = input.pipeline_ids.map((parentId) => ({
        parentId,
        window: { offset: 0, limit: 1 },
        withTotal: false,
      }));
      const parts = await ctx.useCases.byId.buildsOfPipelines(ctx.actor, requests, { excludeJobs: true });
      const options = { urls: ctx.urls, form: 'list', excludeJobs: true } as const;
      return parts.flatMap((part, index) => {
        if (isDomainError(part)) return [];
        const [latest] = part.items;
        const build = latest ? presentBuild(latest, options) : null;
        return [{ pipeline_id: input.pipeline_ids[index] as string, build }];
      });
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: BUILD, tags: TAGS, summary: 'Get a build' },
      operation: 'getBuild',
      conditional: true,
    })
    .input(GetBuildInput)
    .output(documented(BuildWire))
    .query(async ({ ctx, input }) => {
      const ref = buildRef(input);
      // Only a conditional GET reads the revision first: it may answer 304 without reading the build.
      const answers = revisionAnswers(ctx, { cacheable: false });
      const revision = answers && (await ctx.useCases.pipelineRevision(ctx.actor, ref, 'getBuild'));
      if (revision && answers?.(revision)) return ANSWERED_BY_REVISION;
      const result = await ctx.useCases.getBuild(ctx.actor, ref, {
        includeRetriedJobs: input.include_retried_jobs,
      });
      tagAnswer(ctx, result.revision, { cacheable: false });
      return single(ctx, result, { jobStateCounts: true });
    }),

  create: authed
    .meta({
      openapi: { method: 'POST', path: `${PIPELINE}/builds`, tags: TAGS, summary: 'Create a build' },
      operation: 'createBuild',
      successStatus: 201,
      requestBody: 'CreateBuildRequest',
    })
    .input(CreateBuildInput)
    .output(documented(BuildWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, ...body } = input;
      const result = await ctx.useCases.createBuild(ctx.actor, { organization, pipeline }, body);
      return single(ctx, result);
    }),

  cancel: authed
    .meta({
      openapi: { method: 'PUT', path: `${BUILD}/cancel`, tags: TAGS, summary: 'Cancel a build' },
      operation: 'cancelBuild',
    })
    .input(BuildKey)
    .output(documented(BuildWire))
    .mutation(async ({ ctx, input }) =>
      single(ctx, await ctx.useCases.cancelBuild(ctx.actor, buildRef(input))),
    ),

  rebuild: authed
    .meta({
      openapi: { method: 'PUT', path: `${BUILD}/rebuild`, tags: TAGS, summary: 'Rebuild a build' },
      operation: 'rebuildBuild',
    })
    .input(BuildKey)
    .output(documented(BuildWire))
    .mutation(async ({ ctx, input }) =>
      single(ctx, await ctx.useCases.rebuildBuild(ctx.actor, buildRef(input))),
    ),
});
