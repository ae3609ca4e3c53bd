import {
  type Artifact,
  type ArtifactState,
  artifactFilename,
  artifactGlob,
  isUuid,
  notFound,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { type BuildResult, requireBuild } from '../builds/build-result';
import type { BuildRef } from '../builds/get-build';
import { type JobInBuild, type JobRef, loadJob } from '../jobs/job-actions';
import { type Page, pageWindow } from '../page';
import type { Deps } from '../ports';
import { artifactSettings } from './agent-artifacts';
import { artifactKey } from './artifact-ports';

export interface ArtifactRef extends JobRef {
  artifact: string;
}

export interface ArtifactList {
  build: BuildResult;
  artifacts: Artifact[];
  totalCount: number;
}

/** `GET …/builds/{n}/artifacts`: a page of the build's artifacts, oldest first. */
export const listBuildArtifacts =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef, page: Page): Promise<ArtifactList> => {
    const { build } = await requireBuild(deps)(actor, 'listArtifacts', ref, 'read');
    const buildId = build.view.build.id;
    const [artifacts, totalCount] = await Promise.all([
      deps.repos.artifacts.ofBuild(buildId, pageWindow(page)),
      deps.repos.artifacts.countOfBuild(buildId),
    ]);
    return { build, artifacts, totalCount };
  };

/** `GET …/jobs/{id}/artifacts`: a page of the job's artifacts, oldest first. */
export const listJobArtifacts =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef, page: Page): Promise<ArtifactList> => {
    const { build, job } = await loadJob(deps)(actor, ref, 'listArtifacts', 'read');
    const [artifacts, totalCount] = await Promise.all([
      deps.repos.artifacts.ofJob(job.job.id, pageWindow(page)),
      deps.repos.artifacts.countOfJob(job.job.id),
    ]);
    return { build, artifacts, totalCount };
  };

async function artifactOf(deps: Deps, found: JobInBuild, id: string): Promise<Artifact> {
  const artifact = isUuid(id) ? await deps.repos.artifacts.find(id) : null;
  if (!artifact || artifact.jobId !== found.job.job.id) throw notFound('artifact');
  return artifact;
}

export const getArtifact =
  (deps: Deps) =>
  async (actor: Actor, ref: ArtifactRef): Promise<JobInBuild & { artifact: Artifact }> => {
    const found = await loadJob(deps)(actor, ref, 'getArtifact', 'read');
    return { ...found, artifact: await artifactOf(deps, found, ref.artifact) };
  };

/** A signed address of the artifact's bytes, valid for a while (REST's `…/download` redirects to it). */
export const downloadArtifact =
  (deps: Deps) =>
  async (actor: Actor, ref: ArtifactRef): Promise<{ url: string; expiresAt: Date }> => {
    const found = await loadJob(deps)(actor, ref, 'downloadArtifact', 'read');
    const artifact = await artifactOf(deps, found, ref.artifact);
    if (artifact.state !== 'finished') throw notFound('artifact');
    return signedUrl(deps, artifact);
  };

function signedUrl(deps: Deps, artifact: Artifact) {
  return artifactSettings(deps).store.downloadUrl({
    key: artifactKey(artifact),
    filename: artifactFilename(artifact.path),
    mimeType: artifact.mimeType,
  });
}

/**
 * `DELETE …/artifacts/{id}`: whoever may build the pipeline may. The row goes first, so nothing ever
 * lists an artifact whose bytes are gone; a failed removal of the bytes leaves only unreachable bytes.
 * Answers the artifact as it was (GraphQL's `artifactDelete` shows it).
 */
export const deleteArtifact =
  (deps: Deps) =>
  async (actor: Actor, ref: ArtifactRef): Promise<Artifact> => {
    const found = await loadJob(deps)(actor, ref, 'deleteArtifact', 'build');
    const artifact = await artifactOf(deps, found, ref.artifact);
    if (!(await deps.repos.artifacts.delete(artifact.id))) throw notFound('artifact');
    await artifactSettings(deps).store.remove(artifactKey(artifact));
    return artifact;
  };

export interface ArtifactsFilter {
  state: ArtifactState | null;
  /** a glob over the path (`*.log`), or a path */
  path: string | null;
}

function filtered(artifacts: readonly Artifact[], filter: ArtifactsFilter): Artifact[] {
  const pattern = filter.path ? artifactGlob(filter.path) : null;
  return artifacts.filter((artifact) => !pattern || pattern.test(artifact.path));
}

function groupBy(
  artifacts: readonly Artifact[],
  key: (artifact: Artifact) => string,
  ids: readonly string[],
) {
  const groups = new Map<string, Artifact[]>(ids.map((id) => [id, []]));
  for (const artifact of artifacts) groups.get(key(artifact))?.push(artifact);
  return ids.map((id) => groups.get(id) ?? []);
}

/**
 * The artifacts of jobs the actor has already been shown (GraphQL's `JobTypeCommand.artifacts`), all of
 * them in one read, in the order of `jobIds`.
 */
export const getArtifactsOfJobs =
  (deps: Deps) =>
  async (actor: Actor, jobIds: readonly string[], filter: ArtifactsFilter): Promise<Artifact[][]> => {
    requireScope(actor, 'listArtifacts');
    const ids = jobIds.filter(isUuid);
    const artifacts = ids.length ? await deps.repos.artifacts.ofJobs(ids, { state: filter.state }) : [];
    return groupBy(filtered(artifacts, filter), (artifact) => artifact.jobId, jobIds);
  };

/** The artifacts of builds the actor has already been shown (GraphQL's `Build.artifacts`), in one read. */
export const getArtifactsOfBuilds =
  (deps: Deps) =>
  async (actor: Actor, buildIds: readonly string[], filter: ArtifactsFilter): Promise<Artifact[][]> => {
    requireScope(actor, 'listArtifacts');
    const ids = buildIds.filter(isUuid);
    const artifacts = ids.length ? await deps.repos.artifacts.ofBuilds(ids, { state: filter.state }) : [];
    return groupBy(filtered(artifacts, filter), (artifact) => artifact.buildId, buildIds);
  };

/** The signed download address of an artifact GraphQL shows (`Artifact.downloadURL`). */
export const getArtifactDownloadUrl = (deps: Deps) => async (artifact: Artifact) => signedUrl(deps, artifact);
