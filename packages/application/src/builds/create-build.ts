import {
  type Build,
  type BuildRequest,
  type BuildSnapshot,
  type BuildSource,
  conditionFacts,
  jobsForSteps,
  newBuildRefusal,
  newBuildSnapshot,
  type Organization,
  type Pipeline,
  parseBuildRequest,
  progressBuild,
  type User,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { type AuthorizedPipeline, requirePipeline } from '../auth/authorize';
import { stepPatterns } from '../pipelines/step-patterns';
import type { Deps } from '../ports';
import { asSeenWith, type BuildResult } from './build-result';

export interface PipelineRef {
  organization: string;
  pipeline: string;
}

/**
 * Inserts a scheduled build of the pipeline with jobs from its steps, numbered by the pipeline's counter;
 * answers what was written (no read of the new build and its jobs).
 */
export const insertBuild =
  (deps: Deps) =>
  async (input: {
    pipeline: Pipeline;
    organization: Pick<Organization, 'id' | 'slug'>;
    build: Omit<Build, 'number' | keyof BuildSnapshot>;
  }) => {
    const { pipeline, organization } = input;
    const build: Omit<Build, 'number'> = { ...newBuildSnapshot(), ...input.build };
    const now = build.createdAt;
    // A pipeline in a cluster sends its jobs to the cluster's queues (read only then: the common create
    // of an unclustered pipeline reads nothing more).
    const clusterId = pipeline.clusterId;
    // A cluster deleted meanwhile (the pipeline moved out of it) has no queues: its jobs wait for none.
    const cluster = clusterId
      ? ((await deps.repos.clusters.placement(clusterId)) ?? {
          clusterId,
          defaultQueueId: null,
          queueIds: new Map(),
        })
      : null;
    // A new build's first steps are decided at once: a leading block blocks it, no steps at all is not run.
    const progress = progressBuild({
      build,
      jobs: jobsForSteps({
        steps: pipeline.steps,
        buildId: build.id,
        at: now,
        newId: deps.newId,
        facts: conditionFacts(build, pipeline, organization.slug),
        regex: stepPatterns,
        timeouts: pipeline,
        cluster,
      }),
      at: now,
      newId: deps.newId,
    });
    const scheduled = { ...build, ...progress.build };
    const created = await deps.repos.builds.create({
      build: scheduled,
      organizationId: organization.id,
      jobs: progress.jobs,
    });
    return { scheduled, jobs: progress.jobs, created };
  };

/** The pipeline a build is scheduled on, as the access check (or a webhook's token) found it. */
export type BuildTarget = Pick<
  AuthorizedPipeline,
  'pipeline' | 'organization' | 'access' | 'pipelineCreator'
>;

/**
 * Inserts a scheduled build with jobs from the pipeline's steps, numbered by the pipeline's counter; its
 * creator is the actor's user, or none for a webhook's build.
 */
export const scheduleBuild =
  (deps: Deps) =>
  async (
    target: BuildTarget,
    creator: User | null,
    fields: Omit<BuildRequest, 'ignorePipelineBranchFilters'> & {
      rebuiltFrom: { id: string; number: number } | null;
      /** `api` unless said */
      source?: BuildSource;
    },
  ): Promise<BuildResult> => {
    const now = deps.clock.now();
    const { scheduled, jobs, created } = await insertBuild(deps)({
      pipeline: target.pipeline,
      organization: target.organization,
      build: {
        id: deps.newId(),
        pipelineId: target.pipeline.id,
        message: fields.message ?? '',
        commit: fields.commit,
        branch: fields.branch,
        env: fields.env,
        metaData: fields.metaData,
        source: fields.source ?? 'api',
        author: fields.author,
        creatorId: creator?.id ?? null,
        rebuiltFromId: fields.rebuiltFrom?.id ?? null,
        pullRequest: fields.pullRequest,
        cleanCheckout: fields.cleanCheckout,
        createdAt: now,
        scheduledAt: now,
      },
    });
    // The answer is what was written, as a read would show it (the JSON fields as stored, the counts
    // after): no read of the new build and its jobs.
    return asSeenWith(target.access, {
      build: { ...scheduled, ...created.stored, number: created.number },
      organizationSlug: target.organization.slug,
      // The pipeline as this create left it: its counter past the new number, its counts after it.
      pipeline: {
        ...target.pipeline,
        nextBuildNumber: created.number + 1,
        counts: created.counts,
        createdBy: target.pipelineCreator,
      },
      creator,
      jobs: jobs.map((job) => ({ job, agent: null, retrySourceId: null })),
      rebuiltFrom: fields.rebuiltFrom,
      triggeredFrom: null,
    });
  };

export const createBuild =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef, body: unknown): Promise<BuildResult> => {
    const target = await requirePipeline(deps)(actor, 'createBuild', ref, 'build');
    const request = parseBuildRequest(body);
    if (!request.ok) throw request.error;
    const refusal = newBuildRefusal(target.pipeline, request.value);
    if (refusal) throw refusal;
    return scheduleBuild(deps)(target, actor.user, { ...request.value, rebuiltFrom: null });
  };
