import {
  type Artifact,
  type ArtifactDeclaration,
  type ArtifactState,
  artifactContentProblem,
  artifactGlob,
  badRequest,
  checkArtifactDeclaration,
  DomainError,
  isArtifactState,
  isUuid,
  MAX_ARTIFACT_BATCH,
  mayReadArtifacts,
  notFound,
  unprocessable,
} from '@ci/domain';
import { authenticateAgent, ownJob } from '../agents/agent-protocol';
import type { Deps } from '../ports';
import { type ArtifactSettings, artifactKey } from './artifact-ports';

/** The artifact settings, which a process that serves agents or artifacts must have been given. */
export function artifactSettings(deps: Deps): ArtifactSettings {
  if (!deps.artifacts) throw new Error('No artifact store is configured');
  return deps.artifacts;
}

/** The agent's own job, while it runs: only a running job declares or uploads artifacts. */
async function runningJob(deps: Deps, authorization: string | undefined, jobId: string) {
  const agent = await authenticateAgent(deps)(authorization);
  const location = await ownJob(deps, agent, jobId);
  if (location.job.state !== 'running') {
    throw unprocessable(
      'job_not_running',
      `Artifacts can be uploaded only while the job runs (it is ${location.job.state})`,
    );
  }
  return { agent, location };
}

/**
 * Declares a batch of the job's artifacts (state `new`), after the public agent's `POST …/artifacts`:
 * every declaration is checked first, so a bad one refuses the whole batch and nothing is written.
 */
export const createArtifacts =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    jobId: string,
    declarations: readonly ArtifactDeclaration[],
  ): Promise<Artifact[]> => {
    const { maxBytes } = artifactSettings(deps);
    const { location } = await runningJob(deps, authorization, jobId);
    if (declarations.length === 0 || declarations.length > MAX_ARTIFACT_BATCH) {
      throw badRequest('invalid_artifacts', `A batch declares 1 to ${MAX_ARTIFACT_BATCH} artifacts`);
    }
    const checked = declarations.map((declaration) => checkArtifactDeclaration(declaration, maxBytes));
    const at = deps.clock.now();
    const artifacts = checked.map(
      (declaration): Artifact => ({
        id: deps.newId(),
        jobId: location.job.id,
        buildId: location.buildId,
        path: declaration.path,
        globPath: declaration.globPath,
        originalPath: declaration.originalPath,
        mimeType: declaration.mimeType ?? 'application/octet-stream',
        fileSize: declaration.fileSize,
        sha1sum: declaration.sha1sum,
        sha256sum: declaration.sha256sum,
        state: 'new',
        createdAt: at,
        uploadedAt: null,
      }),
    );
    await deps.repos.artifacts.insert(artifacts);
    return artifacts;
  };

async function ownArtifact(deps: Deps, jobId: string, artifactId: string): Promise<Artifact> {
  const artifact = isUuid(artifactId) ? await deps.repos.artifacts.find(artifactId) : null;
  if (!artifact || artifact.jobId !== jobId) throw notFound('artifact');
  return artifact;
}

/**
 * Stores the bytes of a declared artifact: the store reads them aside, and only bytes of the declared
 * size and checksums become its content and make it `finished`. Anything else keeps nothing and marks
 * it `error`, so no half-written artifact is ever listed as finished.
 */
export const uploadArtifact =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    input: { jobId: string; artifactId: string; body: AsyncIterable<Uint8Array> },
  ): Promise<Artifact> => {
    const { store, maxBytes } = artifactSettings(deps);
    const { location } = await runningJob(deps, authorization, input.jobId);
    const artifact = await ownArtifact(deps, location.job.id, input.artifactId);
    if (artifact.state !== 'new') {
      throw unprocessable('artifact_not_new', `The artifact "${artifact.path}" is ${artifact.state} already`);
    }
    try {
      await store.put({
        key: artifactKey(artifact),
        body: input.body,
        maxBytes: Math.min(maxBytes, artifact.fileSize),
        mimeType: artifact.mimeType,
        check: (stored) => artifactContentProblem(artifact, stored),
      });
    } catch (error) {
      if (error instanceof DomainError) {
        await deps.repos.artifacts.changeState({ id: artifact.id, from: ['new'], to: 'error' });
      }
      throw error;
    }
    const uploadedAt = deps.clock.now();
    const finished = await deps.repos.artifacts.changeState({
      id: artifact.id,
      from: ['new'],
      to: 'finished',
      uploadedAt,
    });
    if (!finished)
      throw unprocessable('artifact_not_new', `The artifact "${artifact.path}" changed meanwhile`);
    return { ...artifact, state: 'finished', uploadedAt };
  };

/**
 * The public agent's `PUT …/artifacts`: the agent reports each artifact's end. `error` is taken for one
 * still `new`; `finished` only confirms what an upload finished (the server checks the bytes itself).
 */
export const updateArtifactStates =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    jobId: string,
    updates: ReadonlyArray<{ id: string; state: string }>,
  ): Promise<void> => {
    const agent = await authenticateAgent(deps)(authorization);
    const location = await ownJob(deps, agent, jobId);
    if (updates.length > MAX_ARTIFACT_BATCH) {
      throw badRequest('invalid_artifacts', `A batch updates at most ${MAX_ARTIFACT_BATCH} artifacts`);
    }
    const artifacts = [];
    for (const update of updates) {
      if (!isArtifactState(update.state) || update.state === 'new') {
        throw badRequest('invalid_state', 'state must be finished or error');
      }
      artifacts.push({ artifact: await ownArtifact(deps, location.job.id, update.id), state: update.state });
    }
    for (const { artifact, state } of artifacts) {
      if (state === 'finished' && artifact.state !== 'finished') {
        throw unprocessable(
          'artifact_not_uploaded',
          `The artifact "${artifact.path}" has no uploaded content`,
        );
      }
      if (state === 'error')
        await deps.repos.artifacts.changeState({ id: artifact.id, from: ['new'], to: 'error' });
    }
  };

export interface ArtifactSearch {
  /** a glob over the artifact's path; empty or absent: every path */
  query: string | null;
  /** a step key, a job id or a job label: only that step's jobs */
  step: string | null;
  state: ArtifactState | null;
  includeRetriedJobs: boolean;
}

export type FoundArtifact = Artifact & { url: string };

/**
 * The public agent's artifact search: a build of the agent's organization, its artifacts whose path the
 * query matches, each with a signed download address.
 */
export const searchArtifacts =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    buildId: string,
    search: ArtifactSearch,
  ): Promise<FoundArtifact[]> => {
    const { store } = artifactSettings(deps);
    const agent = await authenticateAgent(deps)(authorization);
    const [view] = isUuid(buildId)
      ? await deps.repos.lookups.builds({ ids: [buildId], includeRetriedJobs: search.includeRetriedJobs })
      : [];
    if (!view || view.pipeline.organizationId !== agent.organizationId) throw notFound('build');
    await requireArtifactsReadable(deps, agent, view.pipeline);
    const step = search.step;
    const jobIds = new Set(
      view.jobs
        .map(({ job }) => job)
        .filter((job) => !step || job.stepKey === step || job.id === step || job.name === step)
        .map((job) => job.id),
    );
    const pattern = search.query ? artifactGlob(search.query) : null;
    const artifacts = await deps.repos.artifacts.ofBuilds([view.build.id], {
      state: search.state ?? 'finished',
    });
    const found = artifacts.filter(
      (artifact) => jobIds.has(artifact.jobId) && (!pattern || pattern.test(artifact.path)),
    );
    return Promise.all(
      found.map(async (artifact) => ({
        ...artifact,
        url: (
          await store.downloadUrl({
            key: artifactKey(artifact),
            filename: artifact.path.slice(artifact.path.lastIndexOf('/') + 1),
            mimeType: artifact.mimeType,
          })
        ).url,
      })),
    );
  };

/**
 * Another cluster's artifacts need a rule (`mayReadArtifacts`): the reader is the job the agent runs, or
 * without one the agent, in its cluster.
 */
async function requireArtifactsReadable(
  deps: Deps,
  agent: { id: string; clusterId: string | null; organizationId: string },
  target: { id: string; clusterId: string | null },
): Promise<void> {
  const held = await deps.repos.jobs.activeJobOf(agent.id);
  const sourceClusterId = held ? held.job.clusterId : agent.clusterId;
  if (sourceClusterId === target.clusterId) return;
  const rules =
    held && held.pipelineId !== target.id
      ? await deps.repos.rules.list({
          organizationId: agent.organizationId,
          types: ['pipeline.artifacts_read.pipeline'],
          sourcePipelineId: held.pipelineId,
          targetPipelineId: target.id,
          offset: 0,
          limit: 100,
        })
      : [];
  const allowed = mayReadArtifacts({
    sourcePipelineId: held?.pipelineId ?? '',
    sourceClusterId,
    targetPipelineId: target.id,
    targetClusterId: target.clusterId,
    rules,
  });
  if (!allowed) {
    throw new DomainError({
      kind: 'forbidden',
      code: 'artifacts_read_rule',
      message:
        "This build's pipeline is in another cluster: reading its artifacts needs a pipeline.artifacts_read.pipeline rule",
    });
  }
}

/** The bytes behind a download address the store signed itself; what it refuses answers as missing. */
export const openSignedArtifact =
  (deps: Deps) => async (input: { key: string; query: Readonly<Record<string, string>> }) => {
    const opened = await artifactSettings(deps).store.openSigned(input);
    if (!opened) throw notFound('artifact');
    return opened;
  };
