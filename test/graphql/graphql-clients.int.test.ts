import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeGraphqlId } from '@ci/domain';
import { schema } from '@ci/graphql';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * Operations shaped like real clients' (the Terraform provider's team pipeline mutations and `getNode`
 * fragments, the CLI's build views, a pipeline's builds by state): each validates against our schema
 * AND the public API's (the reference subset), then runs against the real server without errors.
 */

const REFERENCE = buildSchema(
  readFileSync(
    resolve(import.meta.dirname, '../fixtures/reference/buildkite-graphql-subset.graphql'),
    'utf8',
  ),
);

const TEAM_PIPELINE_FIELDS = `fragment TeamPipelineFields on TeamPipeline {
  id
  uuid
  accessLevel
  createdAt
  team { id uuid slug name }
  pipeline { id uuid slug name }
}`;

const OPERATIONS = {
  createTeamPipeline: `mutation createTeamPipeline($teamId: ID!, $pipelineId: ID!, $accessLevel: PipelineAccessLevels!) {
    teamPipelineCreate(input: { teamID: $teamId, pipelineID: $pipelineId, accessLevel: $accessLevel }) {
      clientMutationId
      teamPipelineEdge { cursor node { ...TeamPipelineFields } }
    }
  }
  ${TEAM_PIPELINE_FIELDS}`,
  updateTeamPipeline: `mutation updateTeamPipeline($id: ID!, $accessLevel: PipelineAccessLevels!) {
    teamPipelineUpdate(input: { id: $id, accessLevel: $accessLevel }) {
      teamPipeline { ...TeamPipelineFields }
    }
  }
  ${TEAM_PIPELINE_FIELDS}`,
  deleteTeamPipeline: `mutation deleteTeamPipeline($id: ID!, $force: Boolean) {
    teamPipelineDelete(input: { id: $id, force: $force }) {
      clientMutationId
      deletedTeamPipelineID
      team { id slug }
    }
  }`,
  getNode: `query getNode($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on TeamPipeline { ...TeamPipelineFields }
      ... on Build { ...BuildFields }
      ... on JobTypeCommand { jobUuid: uuid label jobState: state command exitStatus passed build { number } }
      ... on JobTypeWait { waitUuid: uuid waitState: state }
      ... on Registry { registryUuid: uuid registryName: name slug description url }
      ... on Pipeline { pipelineUuid: uuid pipelineSlug: slug }
      ... on Team { teamUuid: uuid teamSlug: slug }
      ... on Organization { organizationUuid: uuid organizationSlug: slug }
      ... on User { userUuid: uuid userName: name }
    }
  }
  fragment BuildFields on Build {
    buildUuid: uuid number buildState: state branch commit message url buildCreatedAt: createdAt
    buildPipeline: pipeline { id slug }
  }
  ${TEAM_PIPELINE_FIELDS}`,
  getBuild: `query GetBuild($slug: ID!) {
    build(slug: $slug) {
      id number state branch commit message url createdAt scheduledAt startedAt finishedAt canceledAt
      createdBy {
        ... on User { id name email }
        ... on UnregisteredUser { authorName: name authorEmail: email }
      }
      pullRequest { id }
      source { name }
      pipeline { id slug name }
      organization { slug }
      jobs(first: 100) {
        count
        pageInfo { hasNextPage endCursor }
        edges { node {
          ... on JobTypeCommand { id uuid label state command exitStatus passed softFailed startedAt finishedAt
            agentQueryRules step { key } agent { name hostname } }
          ... on JobTypeWait { id uuid state }
          ... on JobTypeBlock { id uuid label state }
        } }
      }
    }
  }`,
  pipelineBuilds: `query PipelineBuilds($slug: ID!, $state: [BuildStates!], $branch: [String!]) {
    build(slug: $slug) {
      pipeline {
        builds(first: 50, state: $state, branch: $branch) {
          count
          edges { node { id number state branch commit url createdBy { ... on User { name } } } }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }`,
  getJob: `query GetJob($uuid: ID!) {
    job(uuid: $uuid) {
      ... on JobTypeCommand { id uuid label state command url build { id number } }
    }
  }`,
  getRegistry: `query GetRegistry($slug: ID!) {
    registry(slug: $slug) { id uuid name slug description emoji color createdAt url organization { id slug } }
  }`,
  createBuild: `mutation CreateBuild($input: BuildCreateInput!) {
    buildCreate(input: $input) { clientMutationId build { id uuid number url state } }
  }`,
  cancelBuild: `mutation CancelBuild($id: ID!) {
    buildCancel(input: { id: $id }) { clientMutationId build { id state } }
  }`,
  rebuildBuild: `mutation RebuildBuild($id: ID!) {
    buildRebuild(input: { id: $id }) { build { id number } rebuild { id number url } }
  }`,
} as const;

describe('client operations', () => {
  it.each(Object.entries(OPERATIONS))(
    '%s validates against the reference schema and ours',
    (_name, operation) => {
      const document = parse(operation);
      expect(validate(REFERENCE, document).map((error) => error.message)).toEqual([]);
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
    },
  );
});

let world: GraphqlWorld;
let teams: Record<string, string>;
beforeAll(async () => {
  world = await startGraphqlWorld();
  teams = await teamIds(world);
});
afterAll(async () => world?.close());

async function run(name: keyof typeof OPERATIONS, variables: Record<string, unknown>) {
  const response = await world.gql(OPERATIONS[name], variables, {
    operationName: name === 'getNode' ? 'getNode' : undefined,
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

describe('client operations against the server', () => {
  it('run the team pipeline lifecycle as the Terraform provider does', async () => {
    const teamId = encodeGraphqlId('Team', teams.hidden as string);
    const pipelineId = encodeGraphqlId('Pipeline', world.pipelines.api?.id as string);
    const created = await run('createTeamPipeline', { teamId, pipelineId, accessLevel: 'BUILD_AND_READ' });
    const node = created.teamPipelineCreate.teamPipelineEdge.node;
    expect(node).toMatchObject({
      accessLevel: 'BUILD_AND_READ',
      team: { id: teamId, slug: 'hidden' },
      pipeline: { id: pipelineId, slug: 'api' },
    });
    const read = await run('getNode', { id: node.id });
    expect(read.node).toMatchObject({
      __typename: 'TeamPipeline',
      id: node.id,
      accessLevel: 'BUILD_AND_READ',
    });
    const updated = await run('updateTeamPipeline', { id: node.id, accessLevel: 'READ_ONLY' });
    expect(updated.teamPipelineUpdate.teamPipeline.accessLevel).toBe('READ_ONLY');
    const deleted = await run('deleteTeamPipeline', { id: node.id });
    expect(deleted.teamPipelineDelete).toMatchObject({
      deletedTeamPipelineID: node.id,
      team: { slug: 'hidden' },
    });
    expect((await run('getNode', { id: node.id })).node).toBeNull();
  });

  it('create, read, list, cancel and rebuild builds as the CLI does', async () => {
    const created = await run('createBuild', {
      input: {
        pipelineID: encodeGraphqlId('Pipeline', world.pipelines.web?.id as string),
        commit: 'HEAD',
        branch: 'main',
      },
    });
    const build = created.buildCreate.build;
    expect(build).toMatchObject({ number: 1, state: 'SCHEDULED' });
    const viewed = await run('getBuild', { slug: 'acme/web/1' });
    expect(viewed.build).toMatchObject({ id: build.id, jobs: { count: 4 }, source: { name: 'api' } });
    const job = viewed.build.jobs.edges[0].node;
    expect((await run('getJob', { uuid: job.uuid })).job).toMatchObject({ id: job.id, build: { number: 1 } });
    expect((await run('getNode', { id: build.id })).node).toMatchObject({ __typename: 'Build', number: 1 });
    expect((await run('getNode', { id: job.id })).node).toMatchObject({
      __typename: 'JobTypeCommand',
      jobUuid: job.uuid,
    });
    const scheduled = await run('pipelineBuilds', { slug: 'acme/web/1', state: ['SCHEDULED', 'RUNNING'] });
    expect(scheduled.build.pipeline.builds.count).toBe(1);
    expect((await run('cancelBuild', { id: build.id })).buildCancel.build.state).toBe('CANCELED');
    const none = await run('pipelineBuilds', {
      slug: 'acme/web/1',
      state: ['SCHEDULED', 'RUNNING'],
      branch: ['main'],
    });
    expect(none.build.pipeline.builds.count).toBe(0);
    const rebuilt = await run('rebuildBuild', { id: build.id });
    expect(rebuilt.buildRebuild).toMatchObject({ build: { id: build.id }, rebuild: { number: 2 } });
  });

  it('read a registry by slug and by node', async () => {
    const created = await world.call('POST', '/v2/packages/organizations/acme/registries', {
      body: { name: 'Gems', ecosystem: 'ruby' },
    });
    const read = await run('getRegistry', { slug: 'acme/gems' });
    expect(read.registry).toMatchObject({
      id: created.body.graphql_id,
      slug: 'gems',
      organization: { slug: 'acme' },
    });
    expect((await run('getNode', { id: created.body.graphql_id })).node).toMatchObject({
      __typename: 'Registry',
      registryName: 'Gems',
    });
  });
});
