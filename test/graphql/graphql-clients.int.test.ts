import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeGraphqlId } from '@ci/domain';
import { schema } from '@ci/graphql';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * Operations shaped like real clients' (the Terraform provider's team pipeline mutations, its
 * organization, team and pipeline reads and `getNode` fragments, the CLI's build views and `whoami`, a
 * pipeline's builds by state): each validates against our schema AND the public API's (the reference
 * subset), then runs against the real server without errors. Where the provider also sends arguments
 * or fields we do not have (`order`, `cluster`, `tags`, team and role filters), they are left out.
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
      ... on TeamMember { memberUuid: uuid role team { id } user { id } }
      ... on OrganizationMember { organizationMemberUuid: uuid memberUser: user { id } }
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
  whoami: `query GetViewer {
    viewer { id user { id uuid name email } organizations(first: 100) { edges { node { id name slug } } } }
  }`,
  getOrganizationTeams: `query GetOrganizationTeams($slug: ID!, $cursor: String) {
    organization(slug: $slug) {
      teams(first: 500, after: $cursor) {
        pageInfo { endCursor hasNextPage }
        edges { node { id uuid name description slug privacy isDefaultTeam defaultMemberRole membersCanCreatePipelines } }
      }
    }
  }`,
  getTeam: `query GetTeam($slug: ID!) {
    team(slug: $slug) {
      defaultMemberRole description id isDefaultTeam membersCanCreatePipelines name privacy slug uuid
    }
  }`,
  getOrganizationPipelines: `query GetOrganizationPipelines($slug: ID!, $cursor: String, $search: String,
      $repository: PipelineRepositoryInput, $archived: Boolean) {
    organization(slug: $slug) {
      pipelines(first: 500, after: $cursor, search: $search, repository: $repository, archived: $archived) {
        count
        pageInfo { endCursor hasNextPage }
        edges { node { id uuid slug name description defaultBranch archived repository { url } } }
      }
    }
  }`,
  getOrganizationMembers: `query GetOrganizationMembers($slug: ID!, $cursor: String) {
    organization(slug: $slug) {
      id
      members(first: 500, after: $cursor) {
        pageInfo { endCursor hasNextPage }
        edges { node { user { id uuid name email } } }
      }
    }
  }`,
  getPipeline: `query getPipeline($slug: ID!) {
    pipeline(slug: $slug) {
      id pipelineUuid: uuid badgeURL branchConfiguration cancelIntermediateBuilds
      cancelIntermediateBuildsBranchFilter defaultBranch description name repository { url }
      skipIntermediateBuilds skipIntermediateBuildsBranchFilter slug archived visibility webhookURL
      teams(first: 5) { ...PipelineTeam }
    }
  }
  fragment PipelineTeam on TeamPipelineConnection {
    pageInfo { endCursor hasNextPage }
    count
    edges { cursor node { id accessLevel team { id } } }
  }`,
  getTeamMembers: `query GetTeamMembers($slug: ID!) {
    team(slug: $slug) { members(first: 100) { count edges { node { id uuid role user { id name } } } } }
  }`,
  getUserBuilds: `query GetUserBuilds($id: ID!) {
    node(id: $id) { ... on User { builds(first: 10, state: [SCHEDULED]) { count edges { node { number } } } } }
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
  const response = await world.gql(OPERATIONS[name], variables);
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

describe('organization, team and pipeline reads as the Terraform provider and the CLI send them', () => {
  it('whoami: the viewer and their organizations', async () => {
    const { viewer } = await run('whoami', {});
    expect(viewer.user).toMatchObject({ uuid: world.users.admin.id, name: 'Ada Admin' });
    expect(viewer.organizations.edges.map((edge: { node: { slug: string } }) => edge.node.slug)).toEqual([
      'acme',
    ]);
    expect((await run('getNode', { id: viewer.id })).node).toEqual({ __typename: 'Viewer', id: viewer.id });
  });

  it('reads the teams of an organization, then each team by slug and by node', async () => {
    const { teams: list } = (await run('getOrganizationTeams', { slug: 'acme' })).organization;
    expect(list.pageInfo.hasNextPage).toBe(false);
    for (const { node } of list.edges) {
      expect((await run('getTeam', { slug: `acme/${node.slug}` })).team).toEqual(node);
      expect((await run('getNode', { id: node.id })).node).toMatchObject({
        __typename: 'Team',
        teamSlug: node.slug,
      });
    }
    const members = (await run('getTeamMembers', { slug: 'acme/platform' })).team.members;
    expect(members.count).toBe(1);
    const member = members.edges[0].node;
    expect((await run('getNode', { id: member.id })).node).toMatchObject({
      __typename: 'TeamMember',
      memberUuid: member.uuid,
      role: 'MEMBER',
      user: { id: member.user.id },
    });
  });

  it('reads the pipelines of an organization with filters, then each pipeline with its teams', async () => {
    const all = (await run('getOrganizationPipelines', { slug: 'acme' })).organization.pipelines;
    expect(all.count).toBe(7);
    const active = (await run('getOrganizationPipelines', { slug: 'acme', archived: false })).organization
      .pipelines;
    expect(active.count).toBe(6);
    const found = (
      await run('getOrganizationPipelines', { slug: 'acme', search: 'web', repository: { url: 'acme/web' } })
    ).organization.pipelines;
    expect(found.edges.map((edge: { node: { slug: string } }) => edge.node.slug)).toEqual(['web']);
    const { pipeline } = await run('getPipeline', { slug: 'acme/web' });
    expect(pipeline).toMatchObject({ id: found.edges[0].node.id, slug: 'web', visibility: 'PRIVATE' });
    expect(pipeline.teams.count).toBe(1);
    expect(pipeline.teams.edges[0].node).toMatchObject({
      accessLevel: 'MANAGE_BUILD_AND_READ',
      team: { id: encodeGraphqlId('Team', teams.platform as string) },
    });
    expect((await run('getNode', { id: pipeline.id })).node).toMatchObject({
      __typename: 'Pipeline',
      pipelineSlug: 'web',
    });
  });

  it('reads the members of an organization, each user then by node with their builds', async () => {
    const { organization } = await run('getOrganizationMembers', { slug: 'acme' });
    expect((await run('getNode', { id: organization.id })).node).toMatchObject({ organizationSlug: 'acme' });
    const users = organization.members.edges.map(
      (edge: { node: { user: { id: string; name: string } } }) => edge.node.user,
    );
    expect(users.map((user: { name: string }) => user.name)).toEqual([
      'Ada Admin',
      'Max Member',
      'Bea Bystander',
    ]);
    await world.createBuild('api');
    const admin = world.users.admin.id;
    const rest = (await world.call('GET', `/v2/builds?creator=${admin}&state=scheduled&per_page=100`)).body;
    expect(rest.length).toBeGreaterThan(0);
    const scheduled = await run('getUserBuilds', { id: users[0].id });
    expect(scheduled.node.builds.count).toBe(rest.length);
    expect(scheduled.node.builds.edges.map((edge: { node: { number: number } }) => edge.node.number)).toEqual(
      rest.slice(0, 10).map((build: { number: number }) => build.number),
    );
    expect((await run('getNode', { id: users[1].id })).node).toMatchObject({
      __typename: 'User',
      userName: 'Max Member',
    });
  });
});
