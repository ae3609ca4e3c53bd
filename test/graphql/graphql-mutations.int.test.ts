import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_UUID } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * The mutations (Relay input/payload style with clientMutationId) through the real HTTP server on
 * PostgreSQL: each one's result as REST then shows it, and the REST refusals as GraphQL errors.
 */

let world: GraphqlWorld;
let teams: Record<string, string>;
const pipelineId = (name: string) => encodeGraphqlId('Pipeline', world.pipelines[name]?.id as string);
const teamId = (slug: string) => encodeGraphqlId('Team', teams[slug] as string);

beforeAll(async () => {
  world = await startGraphqlWorld();
  teams = await teamIds(world);
});
afterAll(async () => world?.close());

type Reply = Awaited<ReturnType<GraphqlWorld['gql']>>;

function payload(response: Reply, field: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data[field];
}

function refused(response: Reply, field: string, message: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.data, response.text).toEqual({ [field]: null });
  expect(response.body.errors.map((error: { message: string }) => error.message)).toEqual([message]);
  return response.body.errors[0];
}

const BUILD_CREATE = `mutation($input: BuildCreateInput!) {
  buildCreate(input: $input) { clientMutationId build { id uuid number state branch commit message env
    metaData { edges { node { key value } } } createdBy { ... on User { email } ... on UnregisteredUser { name authorEmail: email } } } }
}`;

describe('buildCreate, buildCancel, buildRebuild', () => {
  it('answers the pipeline as the create left it, as a later read shows it (its next number too)', async () => {
    const QUERY = `pipeline { nextBuildNumber slug }`;
    const created = payload(
      await world.gql(
        `mutation($input: BuildCreateInput!) { buildCreate(input: $input) { build { number ${QUERY} } } }`,
        { input: { pipelineID: pipelineId('docs'), commit: 'd'.repeat(40), branch: 'main' } },
      ),
      'buildCreate',
    );
    const read = payload(
      await world.gql(`query($id: ID!) { node(id: $id) { ... on Pipeline { nextBuildNumber slug } } }`, {
        id: pipelineId('docs'),
      }),
      'node',
    );
    expect(created.build.pipeline.nextBuildNumber).toBe(created.build.number + 1);
    expect(created.build.pipeline).toEqual(read);
  });

  it('creates a build on the pipeline the id names, as REST then shows it', async () => {
    const created = payload(
      await world.gql(BUILD_CREATE, {
        input: {
          clientMutationId: 'create-1',
          pipelineID: pipelineId('api'),
          commit: 'c'.repeat(40),
          branch: 'main',
          message: 'from GraphQL',
          env: ['A=1', 'B=x=y'],
          metaData: [{ key: 'release', value: 'v2' }],
          author: { name: 'Someone Else', email: 'else@example.test' },
        },
      }),
      'buildCreate',
    );
    expect(created.clientMutationId).toBe('create-1');
    expect(created.build).toMatchObject({
      number: 1,
      state: 'SCHEDULED',
      commit: 'c'.repeat(40),
      branch: 'main',
      message: 'from GraphQL',
      env: ['A=1', 'B=x=y'],
      metaData: { edges: [{ node: { key: 'release', value: 'v2' } }] },
      createdBy: { email: 'admin@acme.test' },
    });
    const rest = await world.call('GET', '/v2/organizations/acme/pipelines/api/builds/1');
    expect(rest.body).toMatchObject({
      id: created.build.uuid,
      graphql_id: created.build.id,
      source: 'api',
      env: { A: '1', B: 'x=y' },
      meta_data: { release: 'v2' },
    });
  });

  it('answers the REST refusals', async () => {
    const invalid = refused(
      await world.gql(BUILD_CREATE, { input: { pipelineID: pipelineId('api'), branch: 'main' } }),
      'buildCreate',
      'Validation Failed',
    );
    expect(invalid.extensions.errors).toEqual([
      expect.objectContaining({ field: 'commit', code: 'missing' }),
    ]);
    refused(
      await world.gql(BUILD_CREATE, {
        input: { pipelineID: pipelineId('archived'), commit: 'HEAD', branch: 'main' },
      }),
      'buildCreate',
      'Builds cannot be created for an archived pipeline',
    );
    for (const id of [encodeGraphqlId('Pipeline', UNKNOWN_UUID), 'nonsense', pipelineId('elsewhere')]) {
      refused(
        await world.gql(BUILD_CREATE, { input: { pipelineID: id, commit: 'HEAD', branch: 'main' } }),
        'buildCreate',
        'No pipeline found',
      );
    }
    const badEnv = refused(
      await world.gql(BUILD_CREATE, {
        input: { pipelineID: pipelineId('api'), commit: 'HEAD', branch: 'main', env: ['NOVALUE'] },
      }),
      'buildCreate',
      'Validation Failed',
    );
    expect(badEnv.extensions.errors[0]).toMatchObject({ field: 'env', code: 'invalid' });
  });

  it('cancels a build, then refuses to cancel it again with the REST message', async () => {
    const build = await world.createBuild('api');
    const mutation = `mutation($id: ID!) { buildCancel(input: { id: $id, clientMutationId: "c" }) {
      clientMutationId build { id state canceledAt finishedAt } } }`;
    const canceled = payload(await world.gql(mutation, { id: build.graphql_id }), 'buildCancel');
    expect(canceled).toMatchObject({
      clientMutationId: 'c',
      build: { id: build.graphql_id, state: 'CANCELED' },
    });
    expect(canceled.build.canceledAt).toBe(canceled.build.finishedAt);
    const rest = await world.call('GET', `/v2/organizations/acme/pipelines/api/builds/${build.number}`);
    expect(rest.body.state).toBe('canceled');
    refused(
      await world.gql(mutation, { id: build.graphql_id }),
      'buildCancel',
      'This build has already been canceled',
    );
    refused(
      await world.gql(mutation, { id: encodeGraphqlId('Build', UNKNOWN_UUID) }),
      'buildCancel',
      'No build found',
    );
    refused(await world.gql(mutation, { id: build.jobs[0].id }), 'buildCancel', 'No build found');
  });

  it('rebuilds a build: the payload has the original and the new build', async () => {
    const build = await world.createBuild('api', { message: 'original' });
    const rebuilt = payload(
      await world.gql(
        `mutation($id: ID!) { buildRebuild(input: { id: $id }) { clientMutationId
          build { id number } rebuild { id number message state rebuiltFrom { id } } } }`,
        { id: build.graphql_id },
      ),
      'buildRebuild',
    );
    expect(rebuilt.clientMutationId).toBeNull();
    expect(rebuilt.build).toEqual({ id: build.graphql_id, number: build.number });
    expect(rebuilt.rebuild).toMatchObject({
      number: build.number + 1,
      message: 'original',
      state: 'SCHEDULED',
      rebuiltFrom: { id: build.graphql_id },
    });
    const rest = await world.call('GET', `/v2/organizations/acme/pipelines/api/builds/${build.number + 1}`);
    expect(rest.body.rebuilt_from).toMatchObject({ id: build.id, number: build.number });
  });
});

const TEAM_PIPELINE_CREATE = `mutation($input: TeamPipelineCreateInput!) {
  teamPipelineCreate(input: $input) {
    clientMutationId
    teamPipeline { id uuid accessLevel createdAt pipeline { slug } team { slug } }
    teamPipelineEdge { cursor node { id } }
    team { slug pipelines(first: 50) { count edges { node { pipeline { slug } } } } }
    pipeline { id slug }
  }
}`;
const TEAM_PIPELINE_UPDATE = `mutation($input: TeamPipelineUpdateInput!) {
  teamPipelineUpdate(input: $input) { clientMutationId teamPipeline { id accessLevel } }
}`;
const TEAM_PIPELINE_DELETE = `mutation($input: TeamPipelineDeleteInput!) {
  teamPipelineDelete(input: $input) { clientMutationId deletedTeamPipelineID team { slug } }
}`;

describe('teamPipelineCreate, teamPipelineUpdate, teamPipelineDelete', () => {
  it('adds, changes and removes an association, as REST then shows it', async () => {
    // `api` belongs to `platform` too, so removing it from `hidden` leaves it a team.
    const restPath = `/v2/organizations/acme/teams/${teams.hidden}/pipelines/${world.pipelines.api?.id}`;
    const created = payload(
      await world.gql(TEAM_PIPELINE_CREATE, {
        input: { clientMutationId: 'tp', teamID: teamId('hidden'), pipelineID: pipelineId('api') },
      }),
      'teamPipelineCreate',
    );
    expect(created).toMatchObject({
      clientMutationId: 'tp',
      teamPipeline: { accessLevel: 'READ_ONLY', pipeline: { slug: 'api' }, team: { slug: 'hidden' } },
      teamPipelineEdge: { node: { id: created.teamPipeline.id } },
      team: { slug: 'hidden', pipelines: { count: 2 } },
      pipeline: { id: pipelineId('api'), slug: 'api' },
    });
    expect(created.teamPipeline.id).toBe(encodeGraphqlId('TeamPipeline', created.teamPipeline.uuid));
    expect(
      created.team.pipelines.edges.map(
        (edge: { node: { pipeline: { slug: string } } }) => edge.node.pipeline.slug,
      ),
    ).toEqual(['secret', 'api']);
    // The edge's cursor is the association's place in the team's list: the page after it is empty.
    const after = await world.gql(
      `query($id: ID!, $after: String!) { node(id: $id) { ... on TeamPipeline { team { pipelines(after: $after) { edges { node { id } } } } } } }`,
      { id: created.teamPipeline.id, after: created.teamPipelineEdge.cursor },
    );
    expect(after.body.data.node.team.pipelines.edges).toEqual([]);

    const rest = await world.call('GET', restPath);
    expect(rest.body).toMatchObject({
      access_level: 'read_only',
      created_at: created.teamPipeline.createdAt,
    });

    const node = await world.gql(
      'query($id: ID!) { node(id: $id) { __typename id ... on TeamPipeline { accessLevel } } }',
      {
        id: created.teamPipeline.id,
      },
    );
    expect(node.body.data.node).toEqual({
      __typename: 'TeamPipeline',
      id: created.teamPipeline.id,
      accessLevel: 'READ_ONLY',
    });

    const updated = payload(
      await world.gql(TEAM_PIPELINE_UPDATE, {
        input: { id: created.teamPipeline.id, accessLevel: 'BUILD_AND_READ' },
      }),
      'teamPipelineUpdate',
    );
    expect(updated.teamPipeline).toEqual({ id: created.teamPipeline.id, accessLevel: 'BUILD_AND_READ' });
    expect((await world.call('GET', restPath)).body.access_level).toBe('build_and_read');

    const deleted = payload(
      await world.gql(TEAM_PIPELINE_DELETE, {
        input: { id: created.teamPipeline.id, clientMutationId: 'd' },
      }),
      'teamPipelineDelete',
    );
    expect(deleted).toEqual({
      clientMutationId: 'd',
      deletedTeamPipelineID: created.teamPipeline.id,
      team: { slug: 'hidden' },
    });
    expect((await world.call('GET', restPath)).status).toBe(404);
    const gone = await world.gql('query($id: ID!) { node(id: $id) { id } }', { id: created.teamPipeline.id });
    expect(gone.body).toEqual({ data: { node: null } });
  });

  it('takes the access level asked for', async () => {
    const created = payload(
      await world.gql(TEAM_PIPELINE_CREATE, {
        input: {
          teamID: teamId('hidden'),
          pipelineID: pipelineId('docs'),
          accessLevel: 'MANAGE_BUILD_AND_READ',
        },
      }),
      'teamPipelineCreate',
    );
    expect(created.teamPipeline.accessLevel).toBe('MANAGE_BUILD_AND_READ');
  });

  it('answers the REST refusals', async () => {
    refused(
      await world.gql(TEAM_PIPELINE_CREATE, {
        input: { teamID: teamId('platform'), pipelineID: pipelineId('web') },
      }),
      'teamPipelineCreate',
      'Validation failed: Pipeline has already been taken',
    );
    refused(
      await world.gql(TEAM_PIPELINE_CREATE, {
        input: { teamID: teamId('platform'), pipelineID: pipelineId('elsewhere') },
      }),
      'teamPipelineCreate',
      'Validation failed: Pipeline must exist',
    );
    refused(
      await world.gql(TEAM_PIPELINE_CREATE, { input: { teamID: teamId('platform'), pipelineID: 'garbage' } }),
      'teamPipelineCreate',
      'Validation failed: Pipeline is invalid',
    );
    refused(
      await world.gql(TEAM_PIPELINE_CREATE, {
        input: { teamID: encodeGraphqlId('Team', UNKNOWN_UUID), pipelineID: pipelineId('web') },
      }),
      'teamPipelineCreate',
      'No team found',
    );
    refused(
      await world.gql(TEAM_PIPELINE_UPDATE, {
        input: { id: encodeGraphqlId('TeamPipeline', UNKNOWN_UUID), accessLevel: 'READ_ONLY' },
      }),
      'teamPipelineUpdate',
      'No team pipeline found',
    );
    refused(
      await world.gql(TEAM_PIPELINE_DELETE, { input: { id: pipelineId('web') } }),
      'teamPipelineDelete',
      'No team pipeline found',
    );
  });

  it("keeps a pipeline's last team unless forced", async () => {
    // `secret` belongs to `hidden` only: its association is found through the team of a new one.
    const created = payload(
      await world.gql(TEAM_PIPELINE_CREATE, {
        input: { teamID: teamId('hidden'), pipelineID: pipelineId('releases') },
      }),
      'teamPipelineCreate',
    );
    const { team } = (
      await world.gql(
        `query($id: ID!) { node(id: $id) { ... on TeamPipeline { team { pipelines(first: 10) { edges { node { id pipeline { slug } } } } } } } }`,
        { id: created.teamPipeline.id },
      )
    ).body.data.node;
    const secret = team.pipelines.edges.find(
      (edge: { node: { pipeline: { slug: string } } }) => edge.node.pipeline.slug === 'secret',
    ).node.id;
    refused(
      await world.gql(TEAM_PIPELINE_DELETE, { input: { id: secret } }),
      'teamPipelineDelete',
      'The pipeline must belong to at least one team',
    );
    refused(
      await world.gql(TEAM_PIPELINE_DELETE, { input: { id: secret, force: false } }),
      'teamPipelineDelete',
      'The pipeline must belong to at least one team',
    );
    const forced = payload(
      await world.gql(TEAM_PIPELINE_DELETE, { input: { id: secret, force: true } }),
      'teamPipelineDelete',
    );
    expect(forced.deletedTeamPipelineID).toBe(secret);
    // A pipeline without a team is open to every member (decisions.md): the member now sees it.
    const seen = await world.call('GET', '/v2/organizations/acme/pipelines/secret/builds', {
      token: world.tokens.member,
    });
    expect(seen.status).toBe(200);
  });
});

describe('registryCreate, registryUpdate, registryDelete (our extension)', () => {
  it('creates, renames and deletes a registry, as REST then shows it', async () => {
    const organization = (await world.gql('{ build(slug: "acme/api/1") { organization { id } } }')).body.data
      .build.organization.id;
    const created = payload(
      await world.gql(
        `mutation($input: RegistryCreateInput!) { registryCreate(input: $input) { clientMutationId registry { id uuid name slug ecosystem description } } }`,
        {
          input: { organizationID: organization, name: 'My Gems', ecosystem: 'ruby', clientMutationId: 'r' },
        },
      ),
      'registryCreate',
    );
    expect(created).toMatchObject({
      clientMutationId: 'r',
      registry: { name: 'My Gems', slug: 'my-gems', ecosystem: 'ruby', description: null },
    });
    const rest = await world.call('GET', '/v2/packages/organizations/acme/registries/my-gems');
    expect(rest.body).toMatchObject({ id: created.registry.uuid, graphql_id: created.registry.id });

    const updated = payload(
      await world.gql(
        `mutation($input: RegistryUpdateInput!) { registryUpdate(input: $input) { registry { id name slug description } } }`,
        { input: { id: created.registry.id, name: 'Gem Store', description: 'renamed' } },
      ),
      'registryUpdate',
    );
    expect(updated.registry).toEqual({
      id: created.registry.id,
      name: 'Gem Store',
      slug: 'gem-store',
      description: 'renamed',
    });

    const deleted = payload(
      await world.gql(
        `mutation($input: RegistryDeleteInput!) { registryDelete(input: $input) { deletedRegistryID organization { slug } } }`,
        { input: { id: created.registry.id } },
      ),
      'registryDelete',
    );
    expect(deleted).toEqual({ deletedRegistryID: created.registry.id, organization: { slug: 'acme' } });
    expect((await world.call('GET', '/v2/packages/organizations/acme/registries/gem-store')).status).toBe(
      404,
    );
  });

  it('answers the REST refusals', async () => {
    const organization = (await world.gql('{ build(slug: "acme/api/1") { organization { id } } }')).body.data
      .build.organization.id;
    const create = `mutation($input: RegistryCreateInput!) { registryCreate(input: $input) { registry { id } } }`;
    refused(
      await world.gql(create, { input: { organizationID: organization, name: 'x', ecosystem: 'cobol' } }),
      'registryCreate',
      'Validation failed: Ecosystem is not included in the list',
    );
    refused(
      await world.gql(create, {
        input: {
          organizationID: encodeGraphqlId('Organization', UNKNOWN_UUID),
          name: 'x',
          ecosystem: 'ruby',
        },
      }),
      'registryCreate',
      'No organization found',
    );
    refused(
      await world.gql(
        `mutation { registryDelete(input: { id: "${encodeGraphqlId('Registry', UNKNOWN_UUID)}" }) { deletedRegistryID } }`,
      ),
      'registryDelete',
      'No registry found',
    );
  });
});
