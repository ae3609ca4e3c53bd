import { badRequest, distinctUuids, type NotFoundResource, notFound, parseBuildNumber } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope, requireSlugParts } from '../auth/authorize';
import { readVisible, usableById } from '../auth/usable-memberships';
import type { BuildView, Deps, JobView } from '../ports';
import { asSeenWith, type BuildResult } from './build-result';
import { cancelBuild } from './cancel-build';
import { createBuild } from './create-build';
import { type BuildRef, getBuild } from './get-build';
import { rebuildBuild } from './rebuild-build';

/**
 * The builds use cases for a transport that names builds, jobs and pipelines by UUID (GraphQL): the same
 * rules as the REST use cases, which the changes call once they know the REST address. An object of an
 * organization the actor may not use, or one the actor may not see, answers as one that does not exist.
 */

/** A job (with its agent) and the build it belongs to, as the actor may see them. */
export interface JobResult extends JobView {
  build: BuildResult;
}

/**
 * These builds as the actor may see them, in the order given, null for the unknown and the invisible:
 * `read_builds`, then the pipeline's visibility (the domain's access rule). A batch costs what one build
 * costs: the builds with their jobs and pipeline counts, the memberships, what the user's teams give.
 */
export const getBuildsById =
  (deps: Deps) =>
  async (
    actor: Actor,
    ids: readonly string[],
    options: { includeRetriedJobs?: boolean } = {},
  ): Promise<Array<BuildResult | null>> => {
    requireScope(actor, 'getBuild');
    const wanted = distinctUuids(ids);
    const seen = await readVisible(
      deps,
      actor,
      deps.repos.lookups.builds({ ids: wanted, includeRetriedJobs: options.includeRetriedJobs ?? false }),
      (view) => view.pipeline,
    );
    const visible = new Map(seen.map(({ item, access }) => [item.build.id, asSeenWith(access, item)]));
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/**
 * The REST address of the build holding something named by UUID (`read` finds it with its build's id) in
 * an organization the actor may use; whether the actor may act on it is the REST use case's question.
 */
export async function addressInBuild<T extends { buildId: string }>(
  deps: Deps,
  actor: Actor,
  input: { id: string | null; read: (id: string) => Promise<T | undefined>; resource: NotFoundResource },
): Promise<{ found: T; ref: BuildRef }> {
  const {
    found: { found, build },
    membership,
  } = await usableById(deps, actor, {
    id: input.id,
    read: async (id) => {
      const found = await input.read(id);
      if (!found) return [];
      const builds = await deps.repos.lookups.buildPipelines([found.buildId]);
      return builds.map((build) => ({ found, build }));
    },
    organizationOf: (found) => found.build.organizationId,
    resource: input.resource,
  });
  return {
    found,
    ref: { organization: membership.organization.slug, pipeline: build.pipelineSlug, number: build.number },
  };
}

/**
 * What builds hold (artifacts, annotations) as the actor may see them, in the order given, null for the
 * unknown and the invisible: `read` finds them by id, then their builds' visibility decides, from the
 * builds' pipeline keys alone (none of the build shows). One read of them, then at most three.
 */
export async function seenThroughBuilds<T extends { id: string; buildId: string }>(
  deps: Deps,
  actor: Actor,
  ids: readonly string[],
  read: (ids: string[]) => Promise<T[]>,
): Promise<Array<T | null>> {
  const wanted = distinctUuids(ids);
  const found = wanted.length > 0 ? await read(wanted) : [];
  const seen = await visibleBuildIds(
    deps,
    actor,
    found.map((item) => item.buildId),
  );
  const visible = new Map(found.filter((item) => seen.has(item.buildId)).map((item) => [item.id, item]));
  return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
}

/** Which of these builds the actor may see, as {@link getBuildsById} decides, from their pipelines' keys. */
async function visibleBuildIds(deps: Deps, actor: Actor, ids: readonly string[]): Promise<Set<string>> {
  const wanted = distinctUuids(ids);
  if (wanted.length === 0) return new Set();
  const seen = await readVisible(deps, actor, deps.repos.lookups.buildPipelines(wanted), (build) => ({
    id: build.pipelineId,
    organizationId: build.organizationId,
  }));
  return new Set(seen.map(({ item }) => item.buildId));
}

/** These jobs with their builds (retried runs included), in the order given, null as for builds. */
export const getJobsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<JobResult | null>> => {
    requireScope(actor, 'getBuild');
    const wanted = distinctUuids(ids);
    const found = await jobsInBuilds(deps, actor, await deps.repos.lookups.jobBuilds(wanted));
    return ids.map((id) => found.get(id.toLowerCase()) ?? null);
  };

/**
 * Jobs whose builds are known already (a lookup that found them read their build ids too), as the actor
 * may see them, by job id: one read of the builds, not two.
 */
export async function jobsInBuilds(
  deps: Deps,
  actor: Actor,
  pairs: readonly { jobId: string; buildId: string }[],
): Promise<Map<string, JobResult>> {
  requireScope(actor, 'getBuild');
  const found = new Map<string, JobResult>();
  if (pairs.length === 0) return found;
  const wanted = new Set(pairs.map((pair) => pair.jobId));
  const buildIds = [...new Set(pairs.map((pair) => pair.buildId))];
  const builds = await getBuildsById(deps)(actor, buildIds, { includeRetriedJobs: true });
  for (const build of builds) {
    for (const view of build?.view.jobs ?? []) {
      if (build && wanted.has(view.job.id)) found.set(view.job.id, { ...view, build });
    }
  }
  return found;
}

/**
 * A build by `uuid`, or by `slug` (`<organization>/<pipeline>/<number>`, answered by the REST get-build
 * use case, so with its refusals). A slug of another shape answers `No build found`.
 */
export const findBuild =
  (deps: Deps) =>
  async (actor: Actor, key: { slug?: string | null; uuid?: string | null }): Promise<BuildResult> => {
    if (key.uuid != null && key.slug == null) {
      const [build] = await getBuildsById(deps)(actor, [key.uuid]);
      if (!build) throw notFound('build');
      return build;
    }
    if (key.slug != null && key.uuid == null) {
      const [organization, pipeline, number] = requireSlugParts(actor, 'getBuild', key.slug, {
        count: 3,
        resource: 'build',
      }) as [string, string, string];
      return getBuild(deps)(actor, { organization, pipeline, number: parseBuildNumber(number) });
    }
    throw badRequest('build_key', 'Find a build by either its slug or its uuid');
  };

/** The REST address of a build the actor's organizations hold (whether the actor may see it is the use case's question). */
async function addressBuild(
  deps: Deps,
  actor: Actor,
  buildId: string | null,
): Promise<{ ref: BuildRef; view: BuildView }> {
  const { found: view, membership } = await usableById(deps, actor, {
    id: buildId,
    read: (id) => deps.repos.lookups.builds({ ids: [id], includeRetriedJobs: false }),
    organizationOf: (found) => found.pipeline.organizationId,
    resource: 'build',
  });
  return {
    view,
    ref: {
      organization: membership.organization.slug,
      pipeline: view.pipeline.slug,
      number: view.build.number,
    },
  };
}

/** Cancels the build with this UUID (null: the id named no build), as the REST cancel does. */
export const cancelBuildById =
  (deps: Deps) =>
  async (actor: Actor, buildId: string | null): Promise<BuildResult> => {
    requireScope(actor, 'cancelBuild');
    const { ref } = await addressBuild(deps, actor, buildId);
    return cancelBuild(deps)(actor, ref);
  };

/** Rebuilds the build with this UUID as the REST rebuild does; returns the original and the new build. */
export const rebuildBuildById =
  (deps: Deps) =>
  async (actor: Actor, buildId: string | null): Promise<{ build: BuildResult; rebuild: BuildResult }> => {
    requireScope(actor, 'rebuildBuild');
    const { ref, view } = await addressBuild(deps, actor, buildId);
    const rebuild = await rebuildBuild(deps)(actor, ref);
    // The same pipeline, so the same access: what the rebuild shows of it, the original shows too.
    return { build: { view, showWebhookUrl: rebuild.showWebhookUrl }, rebuild };
  };

/** Creates a build on the pipeline with this UUID from a REST create body, as the REST create does. */
export const createBuildOnPipelineId =
  (deps: Deps) =>
  async (actor: Actor, pipelineId: string | null, body: unknown): Promise<BuildResult> => {
    requireScope(actor, 'createBuild');
    const { found: pipeline, membership } = await usableById(deps, actor, {
      id: pipelineId,
      read: (id) => deps.repos.lookups.pipelines([id]),
      organizationOf: (found) => found.organizationId,
      resource: 'pipeline',
    });
    return createBuild(deps)(
      actor,
      { organization: membership.organization.slug, pipeline: pipeline.slug },
      body,
    );
  };
