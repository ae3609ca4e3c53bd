import type { BuildResult, BuildView } from '@ci/application';
import { type Build, type Job, type JobState, notFound, type Pipeline } from '@ci/domain';
import { jobIn } from '@ci/domain/job.fixture';
import { type GraphQLObjectType, getNamedType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../builder';
import { idsWithoutPromises, readConnectionsInPlace, schema } from '../schema';
import { BuildNode } from './build-node';
import { JobNode } from './job-node';
import { PipelineNode } from './pipeline-node';

const at = new Date('2026-11-21T10:05:00.000Z');
const later = new Date('2026-11-21T10:07:30.000Z');

/** A script job in `state`, as the bench's and the examples' jobs: labelled and with a command. */
function job(state: JobState, overrides: Partial<Job> = {}): Job {
  return jobIn(state, 'script', { name: 'Tests', command: 'make test', ...overrides });
}

function build(overrides: Partial<Build> = {}, view: Partial<BuildView> = {}): BuildResult {
  return {
    view: {
      build: {
        id: 'build-1',
        number: 7,
        state: 'passed',
        blockedState: null,
        cancelReason: null,
        message: 'Ship it',
        commit: 'HEAD',
        branch: 'main',
        env: { A: '1', B: 'x=y' },
        source: 'api',
        author: { name: 'Ann', email: 'ann@example.com' },
        pullRequest: null,
        createdAt: at,
        scheduledAt: at,
        startedAt: at,
        failingAt: null,
        finishedAt: later,
        ...overrides,
      } as Build,
      organizationSlug: 'acme',
      pipeline: { id: 'pipeline-1', slug: 'web' } as BuildView['pipeline'],
      creator: null,
      jobs: [],
      rebuiltFrom: null,
      triggeredFrom: null,
      ...view,
    },
    showWebhookUrl: false,
  };
}

const jobNode = (state: JobState, overrides: Partial<Job> = {}) =>
  new JobNode({ job: job(state, overrides), agent: null, retrySourceId: null }, build());

describe('JobNode', () => {
  it("shows a job's state under the public GraphQL name (passed, failed and lost are FINISHED)", () => {
    expect(jobNode('passed').state).toBe('FINISHED');
    expect(jobNode('failed').state).toBe('FINISHED');
    expect(jobNode('lost').state).toBe('FINISHED');
    expect(jobNode('canceled').state).toBe('CANCELED');
    expect(jobNode('waiting_failed').state).toBe('WAITING_FAILED');
    expect(jobNode('passed').passed).toBe(true);
    expect(jobNode('failed').passed).toBe(false);
  });

  it('shows the exit status as text, and a canceled job its finish as canceledAt', () => {
    expect(jobNode('running').exitStatus).toBeNull();
    expect(jobNode('failed', { exitStatus: 2 }).exitStatus).toBe('2');
    expect(jobNode('passed', { exitStatus: 0 }).exitStatus).toBe('0');
    expect(jobNode('canceled', { finishedAt: later }).canceledAt).toBe(later);
    expect(jobNode('failed', { finishedAt: later }).canceledAt).toBeNull();
  });

  it('names retry types and signal reasons the reference knows, and no others', () => {
    expect(jobNode('passed', { retryType: 'automatic' }).retryType).toBe('automatic');
    expect(jobNode('passed', { retryType: 'manual' }).retryType).toBe('manual');
    expect(jobNode('passed', { retryType: 'other' }).retryType).toBeNull();
    expect(jobNode('canceled', { signalReason: 'cancel' }).signalReason).toBe('CANCEL');
    expect(jobNode('canceled', { signalReason: 'agent_stop' }).signalReason).toBe('AGENT_STOP');
    expect(jobNode('canceled', { signalReason: 'weird' }).signalReason).toBeNull();
    expect(jobNode('canceled').signalReason).toBeNull();
  });

  it('reads the other fields from the job as they are', () => {
    const node = jobNode('running', { startedAt: later, parallelGroupIndex: 1, parallelGroupTotal: 3 });
    expect(node).toMatchObject({
      uuid: 'job-1',
      label: 'Tests',
      command: 'make test',
      agentQueryRules: ['queue=default'],
      createdAt: at,
      startedAt: later,
      parallelGroupIndex: 1,
      parallelGroupTotal: 3,
      softFailed: false,
      retried: false,
    });
    expect(jobNode('blocked', { type: 'manual' }).isUnblockable).toBe(true);
    expect(jobNode('passed', { type: 'manual' }).isUnblockable).toBe(false);
  });

  it('makes a node of a use case result once (null stays null)', () => {
    const node = jobNode('passed');
    expect(JobNode.of(node)).toBe(node);
    expect(JobNode.of(null)).toBeNull();
    const result = { job: job('passed'), agent: null, retrySourceId: null, build: build() };
    expect(JobNode.of(result)).toMatchObject({ job: result.job, build: result.build, uuid: 'job-1' });
  });
});

describe('BuildNode', () => {
  it('shows a blocked build as blocked, with the state it reports', () => {
    const blocked = new BuildNode(build({ state: 'blocked', blockedState: 'passed' }));
    expect([blocked.state, blocked.blocked, blocked.blockedState]).toEqual(['blocked', true, 'passed']);
    const passed = new BuildNode(build({ state: 'passed', blockedState: 'passed' }));
    expect([passed.blocked, passed.blockedState]).toEqual([false, null]);
  });

  it('shows env as KEY=value texts, the finish of a canceled build as canceledAt, a pull request by id', () => {
    expect(new BuildNode(build()).env).toEqual(['A=1', 'B=x=y']);
    expect(new BuildNode(build({ state: 'canceled' })).canceledAt).toBe(later);
    expect(new BuildNode(build()).canceledAt).toBeNull();
    expect(new BuildNode(build()).pullRequest).toBeNull();
    const withPr = build({ pullRequest: { id: '42', base: 'main', repository: null } });
    expect(new BuildNode(withPr).pullRequest).toEqual({ id: '42' });
  });

  it('is created by its user, else by the author it was created with', () => {
    expect(new BuildNode(build()).createdBy).toEqual({ name: 'Ann', email: 'ann@example.com' });
    const user = { id: 'user-1', name: 'Bo', email: 'bo@example.com' } as BuildView['creator'];
    expect(new BuildNode(build({}, { creator: user })).createdBy).toBe(user);
  });

  it("shows its source and its pipeline with what the build's access decided", () => {
    const node = new BuildNode({ ...build({ source: 'webhook' }), showWebhookUrl: true });
    expect(node.source).toEqual({ source: 'webhook', buildId: node.view.build.id });
    expect(node.pipeline).toBeInstanceOf(PipelineNode);
    expect(node.pipeline).toMatchObject({
      pipeline: node.view.pipeline,
      organizationSlug: 'acme',
      showWebhookUrl: true,
    });
    expect(node).toMatchObject({ uuid: 'build-1', number: 7, message: 'Ship it', branch: 'main' });
  });

  it('makes nodes of the items of each part of a batched list, and keeps refusals', () => {
    const refusal = notFound('pipeline');
    const [found, refused] = BuildNode.parts([{ items: [build()], totalCount: 3 }, refusal]);
    expect(found).toMatchObject({ totalCount: 3 });
    expect((found as { items: BuildNode[] }).items[0]).toBeInstanceOf(BuildNode);
    expect(refused).toBe(refusal);
    const node = new BuildNode(build());
    expect(BuildNode.of(node)).toBe(node);
    expect(BuildNode.of(null)).toBeNull();
  });
});

describe('a pipeline node', () => {
  const pipeline = {
    id: 'pipeline-1',
    slug: 'web',
    name: 'Web',
    repository: 'git@example.com:acme/web.git',
    visibility: 'public',
    archivedAt: null,
    skipQueuedBranchBuilds: true,
    cancelRunningBranchBuilds: false,
  } as unknown as Pipeline;

  it('shows the pipeline under the public names, by the same rules as before', () => {
    const node = new PipelineNode({ pipeline, organizationSlug: 'acme', showWebhookUrl: null });
    expect(node).toMatchObject({
      id: encodeGlobalId('Pipeline', 'pipeline-1'),
      uuid: 'pipeline-1',
      slug: 'web',
      name: 'Web',
      repository: { url: 'git@example.com:acme/web.git' },
      visibility: 'PUBLIC',
      archived: false,
      skipIntermediateBuilds: true,
      cancelIntermediateBuilds: false,
    });
    const archived = new PipelineNode({
      pipeline: { ...pipeline, visibility: 'private', archivedAt: at },
      organizationSlug: 'acme',
      showWebhookUrl: null,
    });
    expect(archived).toMatchObject({ visibility: 'PRIVATE', archived: true, archivedAt: at });
    expect(PipelineNode.of(node)).toBe(node);
    expect(PipelineNode.of(null)).toBeNull();
  });
});

describe('fields read in place', () => {
  const NODES = {
    Build: new BuildNode(build()),
    Pipeline: new BuildNode(build()).pipeline,
    JobTypeCommand: jobNode('passed'),
    JobTypeBlock: jobNode('blocked', { type: 'manual' }),
    JobTypeWait: jobNode('passed', { type: 'waiter' }),
    JobTypeTrigger: jobNode('passed', { type: 'trigger' }),
  };

  it('every field of the build, job and pipeline types without a resolver is a property of their node', () => {
    for (const [typeName, node] of Object.entries(NODES)) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
      const inPlace = Object.values(type.getFields()).filter((field) => !field.resolve);
      expect(inPlace.length, typeName).toBeGreaterThan(3);
      for (const field of inPlace) expect(field.name in node, `${typeName}.${field.name}`).toBe(true);
    }
  });

  it("every connection's edges and page info, and every edge's node, are read in place", () => {
    const connections = Object.values(schema.getTypeMap()).filter(
      (type) => isObjectType(type) && type.getInterfaces().some((iface) => iface.name === 'Connection'),
    );
    expect(connections.length).toBeGreaterThan(10);
    for (const connection of connections) {
      if (!isObjectType(connection)) continue;
      const { edges, pageInfo } = connection.getFields();
      const edge = edges && getNamedType(edges.type);
      expect([edges?.resolve, pageInfo?.resolve], connection.name).toEqual([undefined, undefined]);
      expect(isObjectType(edge) && edge.getFields().node?.resolve, connection.name).toBeUndefined();
    }
    // Done once, when the schema is built.
    expect(readConnectionsInPlace(schema)).toEqual([]);
  });

  it("every Node type's id is answered at once, encoded as the relay plugin encodes it", () => {
    const nodes = Object.values(schema.getTypeMap()).filter(
      (type) => isObjectType(type) && type.getInterfaces().some((iface) => iface.name === 'Node'),
    );
    expect(nodes.length).toBeGreaterThan(10);
    const readInPlace = nodes
      .filter((type) => type.extensions.idReadInPlace === true)
      .map((type) => type.name);
    expect(readInPlace).toEqual([
      'Build',
      'JobTypeBlock',
      'JobTypeCommand',
      'JobTypeTrigger',
      'JobTypeWait',
      'Pipeline',
    ]);
    for (const type of nodes) {
      if (!isObjectType(type)) continue;
      const resolve = type.getFields().id?.resolve;
      if (readInPlace.includes(type.name)) expect(resolve, type.name).toBeUndefined();
      else expect(resolve?.constructor.name, type.name).toBe('Function');
    }
    const id = (typeName: string, parent: unknown) =>
      (schema.getType(typeName) as GraphQLObjectType).getFields().id?.resolve?.(parent, {}, {}, {} as never);
    // Builds and jobs carry theirs, encoded as the plugin encodes them (every job kind's is a Job's).
    const buildNode = new BuildNode(build());
    expect(buildNode.id).toBe(encodeGlobalId('Build', 'build-1'));
    const jobNode = new JobNode({ job: job('passed'), agent: null, retrySourceId: null }, buildNode);
    expect(jobNode.id).toBe(encodeGlobalId('JobTypeCommand', jobNode.job.id));
    expect(jobNode.id).toBe(encodeGlobalId('Job', jobNode.job.id));
    expect(id('User', { id: 'user-1' })).toBe(encodeGlobalId('User', 'user-1'));
    expect(() => id('User', { id: null })).toThrow(/User\.id resolved to object/);
    // Done once, when the schema is built.
    expect(idsWithoutPromises(schema)).toEqual([]);
  });
});
