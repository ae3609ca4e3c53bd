import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Test suites and the teams' access to them through GraphQL, with the operations an infrastructure
 * client sends: give a team access (`teamSuiteCreate`), read it back by `node`, change its access level,
 * take it away; `Suite.teams`, `Team.suites` and `Organization.suites` show the effects. Changes are for
 * organization admins (`write_suites`); members read (`read_suites`).
 */

let world: GraphqlWorld;
let suiteId: string;
let teamId: string;

const CREATE = `mutation createTeamSuite($teamID: ID!, $suiteID: ID!, $accessLevel: SuiteAccessLevels) {
  teamSuiteCreate(input: { teamID: $teamID, suiteID: $suiteID, accessLevel: $accessLevel }) {
    teamSuite { id uuid accessLevel createdBy { name } team { slug } suite { slug } }
    teamSuiteEdge { node { id } }
    suite { name }
    team { name }
  }
}`;
const UPDATE = `mutation updateTeamSuite($id: ID!, $accessLevel: SuiteAccessLevels!) {
  teamSuiteUpdate(input: { id: $id, accessLevel: $accessLevel }) { teamSuite { id accessLevel } }
}`;
const DELETE = `mutation deleteTeamSuite($id: ID!) {
  teamSuiteDelete(input: { id: $id, force: true }) { deletedTeamSuiteID team { slug } }
}`;
const NODE = `query getTeamSuite($id: ID!) {
  node(id: $id) {
    ... on TeamSuite {
      id accessLevel
      permissions { teamSuiteUpdate { allowed } teamSuiteDelete { allowed } }
      suite { uuid name slug url defaultBranch organization { slug } }
    }
  }
}`;
const SUITE_TEAMS = `query suiteTeams($id: ID!) {
  node(id: $id) { ... on Suite { name teams(first: 10) { count edges { node { accessLevel team { slug } } } } } }
}`;
const TEAM_SUITES = `query teamSuites($slug: ID!) {
  team(slug: $slug) { suites(first: 10) { count edges { node { accessLevel suite { slug } } } } }
}`;
const ORGANIZATION_SUITES = `{ organization(slug: "acme") { suites(first: 10) { count edges { node { id slug } } } } }`;

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};
beforeAll(async () => {
  world = await startGraphqlWorld();
  await world.server.useCases.admin.createSuite({
    organization: 'acme',
    name: 'Web Tests',
    defaultBranch: 'main',
  });
  const { edges } = data(await world.gql(ORGANIZATION_SUITES)).organization.suites;
  suiteId = edges[0].node.id;
  teamId = data(await world.gql('{ team(slug: "acme/platform") { id } }')).team.id;
});
afterAll(async () => world?.close());

describe('team suites', () => {
  it('gives a team access, changes its level and takes it away; reads follow', async () => {
    const created = data(await world.gql(CREATE, { teamID: teamId, suiteID: suiteId })).teamSuiteCreate;
    expect(created).toMatchObject({
      teamSuite: {
        accessLevel: 'READ_ONLY',
        createdBy: { name: 'Ada Admin' },
        team: { slug: 'platform' },
        suite: { slug: 'web-tests' },
      },
      suite: { name: 'Web Tests' },
      team: { name: 'Platform' },
    });
    const id = created.teamSuite.id;
    expect(created.teamSuiteEdge.node.id).toBe(id);
    expect(data(await world.gql(NODE, { id })).node).toMatchObject({
      accessLevel: 'READ_ONLY',
      permissions: { teamSuiteUpdate: { allowed: true }, teamSuiteDelete: { allowed: true } },
      suite: { name: 'Web Tests', slug: 'web-tests', defaultBranch: 'main', organization: { slug: 'acme' } },
    });
    expect(errorsOf(await world.gql(CREATE, { teamID: teamId, suiteID: suiteId }))).toEqual([
      'This team already has access to this suite',
    ]);

    const updated = data(await world.gql(UPDATE, { id, accessLevel: 'MANAGE_AND_READ' })).teamSuiteUpdate;
    expect(updated.teamSuite).toEqual({ id, accessLevel: 'MANAGE_AND_READ' });
    const teams = data(await world.gql(SUITE_TEAMS, { id: suiteId })).node.teams;
    expect(teams).toEqual({
      count: 1,
      edges: [{ node: { accessLevel: 'MANAGE_AND_READ', team: { slug: 'platform' } } }],
    });
    const suites = data(await world.gql(TEAM_SUITES, { slug: 'acme/platform' })).team.suites;
    expect(suites.edges).toEqual([
      { node: { accessLevel: 'MANAGE_AND_READ', suite: { slug: 'web-tests' } } },
    ]);

    const member = data(await world.gql(NODE, { id }, { token: world.tokens.member })).node;
    expect(member.permissions).toEqual({
      teamSuiteUpdate: { allowed: false },
      teamSuiteDelete: { allowed: false },
    });

    const deleted = data(await world.gql(DELETE, { id })).teamSuiteDelete;
    expect(deleted).toEqual({ deletedTeamSuiteID: id, team: { slug: 'platform' } });
    expect(data(await world.gql(NODE, { id })).node).toBeNull();
    expect(data(await world.gql(SUITE_TEAMS, { id: suiteId })).node.teams.count).toBe(0);
  });

  it("lists a suite's teams newest first, or by the team's name (the Terraform provider's order)", async () => {
    const SUITE_TEAMS_ORDERED = `query getTestSuite($id: ID!, $teamCount: Int, $order: TeamSuiteOrder) {
      suite: node(id: $id) { ... on Suite { id uuid defaultBranch emoji name slug
        teams(first: $teamCount, order: $order) { edges { node { id accessLevel team { slug } } } } } } }`;
    const hidden = data(await world.gql('{ team(slug: "acme/hidden") { id } }')).team.id;
    const given = [];
    for (const team of [hidden, teamId]) {
      given.push(
        data(await world.gql(CREATE, { teamID: team, suiteID: suiteId })).teamSuiteCreate.teamSuite.id,
      );
    }
    const slugs = async (order: string | null) =>
      data(await world.gql(SUITE_TEAMS_ORDERED, { id: suiteId, teamCount: 10, order })).suite.teams.edges.map(
        (edge: { node: { team: { slug: string } } }) => edge.node.team.slug,
      );
    expect(await slugs(null)).toEqual(['platform', 'hidden']);
    expect(await slugs('RECENTLY_CREATED')).toEqual(['platform', 'hidden']);
    expect(await slugs('NAME')).toEqual(['hidden', 'platform']);
    for (const id of given) data(await world.gql(DELETE, { id }));
  });

  it('refuses members who are not admins, missing scopes and other organizations', async () => {
    expect(
      errorsOf(await world.gql(CREATE, { teamID: teamId, suiteID: suiteId }, { token: world.tokens.member })),
    ).toEqual(['Forbidden']);
    const token = await world.token('admin', { scopes: ['graphql', 'read_suites', 'view_teams'] });
    expect(errorsOf(await world.gql(CREATE, { teamID: teamId, suiteID: suiteId }, { token }))).toEqual([
      "Your access token doesn't have the write_suites scope",
    ]);
    expect(
      errorsOf(
        await world.gql(CREATE, { teamID: teamId, suiteID: suiteId }, { token: world.tokens.outsider }),
      ),
    ).toEqual(['No team found']);
    expect(errorsOf(await world.gql(CREATE, { teamID: teamId, suiteID: teamId }))).toEqual([
      'No suite found',
    ]);
    const created = data(await world.gql(CREATE, { teamID: teamId, suiteID: suiteId })).teamSuiteCreate
      .teamSuite;
    expect(
      errorsOf(
        await world.gql(UPDATE, { id: created.id, accessLevel: 'READ_ONLY' }, { token: world.tokens.member }),
      ),
    ).toEqual(['Forbidden']);
    expect(errorsOf(await world.gql(DELETE, { id: created.id }, { token: world.tokens.outsider }))).toEqual([
      'No team suite found',
    ]);
    const withoutRead = await world.token('admin', { scopes: ['graphql', 'read_organizations'] });
    expect(errorsOf(await world.gql(ORGANIZATION_SUITES, {}, { token: withoutRead }))).toEqual([
      "Your access token doesn't have the read_suites scope",
    ]);
  });
});
