import type { ArtifactRef } from '@ci/application';
import { parseBuildNumber } from '@ci/domain';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, router } from '../trpc';
import { presentArtifact } from './artifact.presenter';
import { ArtifactDownloadWire, ArtifactWire } from './artifact.wire';

const BUILD = '/organizations/{organization}/pipelines/{pipeline}/builds/{number}';
const JOB = `${BUILD}/jobs/{job}`;
const ARTIFACT = `${JOB}/artifacts/{artifact}`;
const TAGS = ['Artifacts'];

const BuildKey = z.object({
  organization: organizationSlug,
  pipeline: z.string().meta({ description: 'pipeline slug' }),
  number: z.string().meta({ description: 'build number' }),
});
const JobKey = BuildKey.extend({ job: z.string().meta({ description: 'job id' }) });
const ArtifactKey = JobKey.extend({ artifact: z.string().meta({ description: 'artifact id' }) });

const buildRef = (input: z.infer<typeof BuildKey>) => ({
  organization: input.organization,
  pipeline: input.pipeline,
  number: parseBuildNumber(input.number),
});
const artifactRef = (input: z.infer<typeof ArtifactKey>): ArtifactRef => ({
  ...buildRef(input),
  job: input.job,
  artifact: input.artifact,
});

export const artifactsRouter = router({
  listOfBuild: authed
    .meta({
      openapi: { method: 'GET', path: `${BUILD}/artifacts`, tags: TAGS, summary: "List a build's artifacts" },
      operation: 'listArtifacts',
    })
    .input(BuildKey.extend(pageParameters))
    .output(documentedList(ArtifactWire))
    .query(async ({ ctx, input }) => {
      const { build, artifacts } = await listPage(ctx, input, (page) =>
        ctx.useCases.listBuildArtifacts(ctx.actor, buildRef(input), page),
      );
      return artifacts.map((artifact) => presentArtifact(build, artifact, ctx.urls));
    }),

  listOfJob: authed
    .meta({
      openapi: { method: 'GET', path: `${JOB}/artifacts`, tags: TAGS, summary: "List a job's artifacts" },
      operation: 'listArtifacts',
    })
    .input(JobKey.extend(pageParameters))
    .output(documentedList(ArtifactWire))
    .query(async ({ ctx, input }) => {
      const { build, artifacts } = await listPage(ctx, input, (page) =>
        ctx.useCases.listJobArtifacts(ctx.actor, { ...buildRef(input), job: input.job }, page),
      );
      return artifacts.map((artifact) => presentArtifact(build, artifact, ctx.urls));
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: ARTIFACT, tags: TAGS, summary: 'Get an artifact' },
      operation: 'getArtifact',
    })
    .input(ArtifactKey)
    .output(documented(ArtifactWire))
    .query(async ({ ctx, input }) => {
      const { build, artifact } = await ctx.useCases.getArtifact(ctx.actor, artifactRef(input));
      return presentArtifact(build, artifact, ctx.urls);
    }),

  download: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${ARTIFACT}/download`,
        tags: TAGS,
        summary: 'Download an artifact: 302 to a signed address of its bytes',
      },
      operation: 'downloadArtifact',
      successStatus: 302,
    })
    .input(ArtifactKey)
    .output(documented(ArtifactDownloadWire))
    .query(async ({ ctx, input }) => {
      const { url } = await ctx.useCases.downloadArtifact(ctx.actor, artifactRef(input));
      ctx.response.headers.Location = url;
      return { url };
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: ARTIFACT, tags: TAGS, summary: 'Delete an artifact' },
      operation: 'deleteArtifact',
      successStatus: 204,
    })
    .input(ArtifactKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteArtifact(ctx.actor, artifactRef(input));
    }),
});
