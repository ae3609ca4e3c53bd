import {
  type Annotation,
  type AnnotationWrite,
  annotated,
  type DomainError,
  isActiveJob,
  isUuid,
  notFound,
  parseAnnotationContext,
  parseAnnotationWrite,
  unprocessable,
} from '@ci/domain';
import { authenticateAgent, ownJob } from '../agents/agent-protocol';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { type BuildResult, requireBuild } from '../builds/build-result';
import { getBuildsById } from '../builds/builds-by-id';
import type { BuildRef } from '../builds/get-build';
import { type ListPart, type Page, type PartRequest, pageWindow, readParts } from '../page';
import type { Deps } from '../ports';
import { annotationRenderer } from './annotation-html';
import type { AnnotationFilter } from './annotation-ports';

/** What an annotate request asks, as sent (REST and agent API bodies): the domain checks every field. */
export interface AnnotateRequest {
  style?: unknown;
  context?: unknown;
  body?: unknown;
  append?: unknown;
  priority?: unknown;
}

export interface AnnotationPage {
  annotations: Annotation[];
  /** every annotation of the build, on all pages */
  totalCount: number;
  build: BuildResult;
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: DomainError }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * Writes one context of a build: a new annotation, a replaced body, an appended one or a new style. The
 * domain decides the new body (refusing a blank or too large one), the HTML is rendered from it here,
 * once, and the repository stores it with the context locked, so nothing is half-written or lost.
 */
const writeAnnotation =
  (deps: Deps) =>
  async (buildId: string, write: AnnotationWrite, jobId: string | null): Promise<Annotation> => {
    const annotationHtml = await annotationRenderer();
    return deps.repos.annotations.write({ buildId, context: write.context }, (current) => {
      const next = unwrap(annotated(current, write));
      const at = deps.clock.now();
      return {
        id: current?.id ?? deps.newId(),
        buildId,
        jobId: jobId ?? current?.jobId ?? null,
        context: write.context,
        style: next.style,
        priority: next.priority,
        body: next.body,
        bodyHtml: next.body === current?.body ? current.bodyHtml : annotationHtml(next.body),
        createdAt: current?.createdAt ?? at,
        updatedAt: at,
      };
    });
  };

/** A build's annotations, newest first, for whoever may see the build. */
export const listAnnotations =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef, page: Page): Promise<AnnotationPage> => {
    const { build } = await requireBuild(deps)(actor, 'listAnnotations', ref, 'read');
    const buildId = build.view.build.id;
    const [annotations, counts] = await Promise.all([
      deps.repos.annotations.listOfBuilds([{ parentId: buildId, ...pageWindow(page) }]),
      deps.repos.annotations.countOfBuilds([buildId]),
    ]);
    return { annotations, totalCount: counts[0]?.count ?? 0, build };
  };

/** Annotates a build over the API: whoever may build the pipeline may. */
export const createAnnotation =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef, request: AnnotateRequest): Promise<Annotation> => {
    const write = unwrap(parseAnnotationWrite(request));
    const { build } = await requireBuild(deps)(actor, 'createAnnotation', ref, 'build');
    return writeAnnotation(deps)(build.view.build.id, write, null);
  };

/**
 * Deletes a build's annotation by its id: whoever may build the pipeline may. Answers the build
 * (GraphQL's `annotationDelete` shows it).
 */
export const deleteAnnotation =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef & { annotation: string }): Promise<BuildResult> => {
    const { build } = await requireBuild(deps)(actor, 'deleteAnnotation', ref, 'build');
    const id = ref.annotation.toLowerCase();
    const deleted = isUuid(id) && (await deps.repos.annotations.delete({ buildId: build.view.build.id, id }));
    if (!deleted) throw notFound('annotation');
    return build;
  };

/** The agent's own running job: what its in-job commands act on. */
async function runningJobOf(deps: Deps, authorization: string | undefined, jobId: string) {
  const agent = await authenticateAgent(deps)(authorization);
  const location = await ownJob(deps, agent, jobId);
  if (!isActiveJob(location.job.state)) throw unprocessable('job_finished', 'This job has finished');
  return location;
}

/** `buildkite-agent annotate` from inside a job: annotates the job's build. */
export const agentAnnotate =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string, request: AnnotateRequest): Promise<Annotation> => {
    const location = await runningJobOf(deps, authorization, jobId);
    const write = unwrap(parseAnnotationWrite(request));
    return writeAnnotation(deps)(location.buildId, write, location.job.id);
  };

/** `buildkite-agent annotation remove` from inside a job: a context that does not exist answers 404. */
export const agentRemoveAnnotation =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string, context: unknown): Promise<void> => {
    const location = await runningJobOf(deps, authorization, jobId);
    const key = { buildId: location.buildId, context: unwrap(parseAnnotationContext(context)) };
    if (!(await deps.repos.annotations.delete(key))) throw notFound('annotation');
  };

/**
 * The annotations of several builds at once (GraphQL `Build.annotations` over a page of builds): the
 * builds the actor may not see are refused as missing ones, the rest read in one statement.
 */
export const listAnnotationsOfBuilds =
  (deps: Deps) =>
  async (
    actor: Actor,
    requests: readonly PartRequest[],
    filter?: AnnotationFilter,
  ): Promise<Array<ListPart<Annotation>>> => {
    requireScope(actor, 'listAnnotations');
    const ids = requests.map((request) => request.parentId);
    const builds = await getBuildsById(deps)(actor, ids);
    const refusals = new Map<string, DomainError>(
      ids.filter((_id, index) => !builds[index]).map((id) => [id, notFound('build')]),
    );
    return readParts({
      requests,
      refusals,
      list: (windows) => deps.repos.annotations.listOfBuilds(windows, filter),
      count: (buildIds) => deps.repos.annotations.countOfBuilds(buildIds, filter),
      parentOf: (annotation) => annotation.buildId,
    });
  };
