import { createHash } from 'node:crypto';
import type { Agent, Artifact, DomainError } from '@ci/domain';
import { jobIn } from '@ci/domain/job.fixture';
import { describe, expect, it } from 'vitest';
import type { JobLocation } from '../agents/agent-ports';
import type { Deps } from '../ports';
import { uuid } from '../use-case.fixture';
import { createArtifacts, searchArtifacts, uploadArtifact } from './agent-artifacts';
import type { ArtifactRepository, ArtifactStore, StoredContent } from './artifact-ports';
import { getArtifactsOfJobs } from './artifacts';

const AGENT = { id: 'agent-1', organizationId: 'org-acme' } as Agent;
const JOB = uuid(1);
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** Fakes of the ports: artifacts in a map, a store that only records what it kept. */
function world(jobState: Parameters<typeof jobIn>[0] = 'running') {
  const rows = new Map<string, Artifact>();
  const kept = new Map<string, StoredContent>();
  const reads: string[][] = [];
  let next = 100;
  const artifacts: Partial<ArtifactRepository> = {
    insert: async (list) => {
      for (const artifact of list) rows.set(artifact.id, artifact);
    },
    find: async (id) => rows.get(id) ?? null,
    changeState: async ({ id, from, to, uploadedAt }) => {
      const row = rows.get(id);
      if (!row || !from.includes(row.state)) return false;
      rows.set(id, { ...row, state: to, uploadedAt: uploadedAt ?? row.uploadedAt });
      return true;
    },
    ofJobs: async (ids) => {
      reads.push([...ids]);
      return [...rows.values()].filter((row) => ids.includes(row.jobId));
    },
  };
  const store: Partial<ArtifactStore> = {
    put: async ({ key, body, maxBytes, check }) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      if (bytes.length > maxBytes) throw new Error('too large');
      const stored = {
        size: bytes.length,
        sha1: createHash('sha1').update(bytes).digest('hex'),
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
      const problem = check(stored);
      if (problem) throw problem;
      kept.set(key, stored);
      return stored;
    },
  };
  const location: JobLocation = {
    job: jobIn(jobState, 'script', { id: JOB, agentId: AGENT.id }),
    buildId: uuid(2),
    buildNumber: 1,
    pipelineId: uuid(3),
    organizationId: AGENT.organizationId,
  };
  const deps = {
    repos: {
      agents: { findByAccessTokenHash: async () => AGENT },
      jobs: { find: async (id: string) => (id === JOB ? location : null) },
      artifacts,
    },
    clock: { now: () => new Date(0) },
    newId: () => uuid(next++),
    artifacts: { store, maxBytes: 1000 },
  } as unknown as Deps;
  return { deps, rows, kept, reads };
}

const declaration = (text: string, change: Partial<{ sha1sum: string; fileSize: number }> = {}) => ({
  path: 'out/a.txt',
  globPath: null,
  originalPath: null,
  mimeType: null,
  fileSize: Buffer.byteLength(text),
  sha1sum: sha1(text),
  sha256sum: null,
  ...change,
});

async function* bytesOf(text: string) {
  yield Buffer.from(text);
}

describe('uploadArtifact', () => {
  it('finishes an artifact whose bytes are the declared ones', async () => {
    const { deps, rows, kept } = world();
    const [artifact] = await createArtifacts(deps)('Token t', JOB, [declaration('abc')]);
    const uploaded = await uploadArtifact(deps)('Token t', {
      jobId: JOB,
      artifactId: artifact?.id as string,
      body: bytesOf('abc'),
    });
    expect(uploaded.state).toBe('finished');
    expect(rows.get(uploaded.id)?.state).toBe('finished');
    expect(kept.size).toBe(1);
  });

  it('marks it error and keeps nothing when the bytes differ, naming what differs', async () => {
    const { deps, rows, kept } = world();
    const [artifact] = await createArtifacts(deps)('Token t', JOB, [
      declaration('abc', { sha1sum: sha1('abd') }),
    ]);
    const id = artifact?.id as string;
    const refusal = await uploadArtifact(deps)('Token t', {
      jobId: JOB,
      artifactId: id,
      body: bytesOf('abc'),
    }).catch((error: DomainError) => error);
    expect(refusal).toMatchObject({ kind: 'unprocessable', code: 'artifact_mismatch' });
    expect((refusal as DomainError).message).toContain('sha1sum');
    expect(rows.get(id)?.state).toBe('error');
    expect(kept.size).toBe(0);
  });

  it('refuses a second upload of a finished artifact', async () => {
    const { deps } = world();
    const [artifact] = await createArtifacts(deps)('Token t', JOB, [declaration('abc')]);
    const input = { jobId: JOB, artifactId: artifact?.id as string };
    await uploadArtifact(deps)('Token t', { ...input, body: bytesOf('abc') });
    await expect(uploadArtifact(deps)('Token t', { ...input, body: bytesOf('abc') })).rejects.toMatchObject({
      code: 'artifact_not_new',
    });
  });
});

describe('createArtifacts', () => {
  it.each(['assigned', 'accepted', 'passed', 'canceling'] as const)(
    'refuses a job that is %s',
    async (state) => {
      const { deps, rows } = world(state);
      await expect(createArtifacts(deps)('Token t', JOB, [declaration('abc')])).rejects.toMatchObject({
        code: 'job_not_running',
      });
      expect(rows.size).toBe(0);
    },
  );

  it('writes nothing of a batch with one bad path', async () => {
    const { deps, rows } = world();
    await expect(
      createArtifacts(deps)('Token t', JOB, [declaration('abc'), { ...declaration('abc'), path: '../x' }]),
    ).rejects.toMatchObject({ code: 'invalid_artifact_path' });
    expect(rows.size).toBe(0);
  });
});

describe('getArtifactsOfJobs', () => {
  it('reads the artifacts of every job in one call, answered in the order asked', async () => {
    const { deps, reads } = world();
    const [artifact] = await createArtifacts(deps)('Token t', JOB, [declaration('abc')]);
    const actor = {
      tokenId: 't',
      user: { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
      scopes: ['read_artifacts'] as const,
      organizationIds: null,
    };
    const answer = await getArtifactsOfJobs(deps)(actor, [uuid(9), JOB], { state: null, path: null });
    expect(answer).toEqual([[], [artifact]]);
    expect(reads).toEqual([[uuid(9), JOB]]);
    await expect(
      getArtifactsOfJobs(deps)({ ...actor, scopes: ['read_builds'] }, [JOB], { state: null, path: null }),
    ).rejects.toMatchObject({ code: 'missing_scope' });
  });
});

describe('searchArtifacts across clusters', () => {
  /** A job of pipeline 3 in cluster c1 searching a build of pipeline 4 in `targetCluster`, with these rules. */
  function search(targetCluster: string | null, rules: object[]) {
    const { deps, rows } = world();
    const target = uuid(4);
    const artifact = {
      id: uuid(50),
      jobId: uuid(51),
      path: 'a.txt',
      state: 'finished',
      mimeType: 'text/plain',
    };
    rows.set(artifact.id, artifact as unknown as Artifact);
    const held: JobLocation = {
      job: jobIn('running', 'script', { id: JOB, agentId: AGENT.id, clusterId: 'c1' }),
      buildId: uuid(2),
      buildNumber: 1,
      pipelineId: uuid(3),
      organizationId: AGENT.organizationId,
    };
    const repos = (deps as unknown as { repos: Record<string, Record<string, unknown>> }).repos;
    repos.jobs = { ...repos.jobs, activeJobOf: async () => held };
    repos.lookups = {
      builds: async () => [
        {
          build: { id: uuid(5) },
          pipeline: { id: target, organizationId: AGENT.organizationId, clusterId: targetCluster },
          jobs: [{ job: jobIn('passed', 'script', { id: uuid(51) }) }],
        },
      ],
    };
    repos.rules = { list: async () => rules };
    repos.artifacts = { ...repos.artifacts, ofBuilds: async () => [artifact] };
    (deps as unknown as { artifacts: { store: object } }).artifacts.store = {
      downloadUrl: async () => ({ url: 'https://signed' }),
    };
    return searchArtifacts(deps)('Token t', uuid(5), {
      query: null,
      step: null,
      state: null,
      includeRetriedJobs: false,
    } as never);
  }
  const rule = (conditions?: string[]) => ({
    type: 'pipeline.artifacts_read.pipeline',
    sourcePipelineId: uuid(3),
    targetPipelineId: uuid(4),
    value: { source_pipeline: uuid(3), target_pipeline: uuid(4), ...(conditions ? { conditions } : {}) },
  });

  it('finds the artifacts of a build in the same cluster', async () => {
    expect((await search('c1', [])).map((found) => found.path)).toEqual(['a.txt']);
  });

  it("refuses another cluster's build without a rule, naming the rule it needs", async () => {
    const refusal = (await search('c2', []).catch((error: DomainError) => error)) as DomainError;
    expect([refusal.kind, refusal.message]).toEqual([
      'forbidden',
      "This build's pipeline is in another cluster: reading its artifacts needs a pipeline.artifacts_read.pipeline rule",
    ]);
    await expect(search(null, [rule(['build.branch == "main"'])])).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });

  it("finds another cluster's artifacts by an artifacts_read rule from the job's pipeline", async () => {
    expect((await search('c2', [rule()])).map((found) => found.path)).toEqual(['a.txt']);
  });
});
