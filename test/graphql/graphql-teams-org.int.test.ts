import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * The team and organization-settings operations the Terraform provider, the `bk` CLI and bktide send
 * (our own documents, with the selections the public schema allows), through the real HTTP server on
 * PostgreSQL: each validates and runs with data, its effect shows through REST and GraphQL reads, and
 * it is refused without the role or scope.
 */

let world: GraphqlWorld;
let teams: Record<string, string>;
let acmeId: string;

beforeAll(async () => {
  world = await startGraphqlWorld();
  teams = await teamIds(world);
  const [row] = await world.server.database.sql.query<{ id: string }>(
    `select id from organizations where slug = 'acme'`,
  );
  acmeId = encodeGraphqlId('Organization', row?.id as string);
});
afterAll(async () => world?.close());

type Reply = Awaited<ReturnType<GraphqlWorld['gql']>>;

function data(response: Reply) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

function refused(response: Reply, message: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors?.map((error: { message: string }) => error.message)).toEqual([message]);
}

const TEAM_FIELDS = `fragment TeamFields on Team {
  id uuid name slug description privacy isDefaultTeam defaultMemberRole
  membersCanCreatePipelines membersCanCreateSuites membersCanCreateRegistries
  membersCanDestroyRegistries membersCanDestroyPackages
}`;

const TEAM_CREATE = `mutation createTeam($organizationID: ID!, $name: String!, $description: String,
  $privacy: TeamPrivacy!, $isDefaultTeam: Boolean!, $defaultMemberRole: TeamMemberRole!,
  $membersCanCreatePipelines: Boolean, $membersCanCreateSuites: Boolean, $membersCanCreateRegistries: Boolean,
  $membersCanDestroyRegistries: Boolean, $membersCanDestroyPackages: Boolean) {
  teamCreate(input: { organizationID: $organizationID, name: $name, description: $description,
    privacy: $privacy, isDefaultTeam: $isDefaultTeam, defaultMemberRole: $defaultMemberRole,
    membersCanCreatePipelines: $membersCanCreatePipelines, membersCanCreateSuites: $membersCanCreateSuites,
    membersCanCreateRegistries: $membersCanCreateRegistries,
    membersCanDestroyRegistries: $membersCanDestroyRegistries,
    membersCanDestroyPackages: $membersCanDestroyPackages }) {
    organization { id }
    teamEdge { cursor node { ...TeamFields } }
  }
}
${TEAM_FIELDS}`;

const TEAM_UPDATE = `mutation updateTeam($id: ID!, $name: String!, $description: String, $privacy: TeamPrivacy!,
  $isDefaultTeam: Boolean!, $defaultMemberRole: TeamMemberRole!, $membersCanCreatePipelines: Boolean,
  $membersCanDestroyPackages: Boolean) {
  teamUpdate(input: { id: $id, name: $name, description: $description, privacy: $privacy,
    isDefaultTeam: $isDefaultTeam, defaultMemberRole: $defaultMemberRole,
    membersCanCreatePipelines: $membersCanCreatePipelines, membersCanDestroyPackages: $membersCanDestroyPackages }) {
    team { ...TeamFields }
  }
}
${TEAM_FIELDS}`;

const TEAM_DELETE = `mutation deleteTeam($id: ID!) {
  teamDelete(input: { id: $id }) { deletedTeamID organization { id } }
}`;

const GET_NODE = `query getNode($id: ID!) { node(id: $id) { ... on Team { ...TeamFields }
  ... on TeamMember { id uuid role team { id } user { id email } } } }
${TEAM_FIELDS}`;

const TEAM_MEMBER_CREATE = `mutation createTeamMember($teamID: ID!, $userID: ID!, $role: TeamMemberRole) {
  teamMemberCreate(input: { teamID: $teamID, userID: $userID, role: $role }) {
    team { id }
    teamMemberEdge { node { id uuid role team { id } user { id uuid email } } }
  }
}`;

const TEAM_MEMBER_UPDATE = `mutation updateTeamMember($id: ID!, $role: TeamMemberRole!) {
  teamMemberUpdate(input: { id: $id, role: $role }) { teamMember { id uuid role } }
}`;

const TEAM_MEMBER_DELETE = `mutation deleteTeamMember($id: ID!) {
  teamMemberDelete(input: { id: $id }) { deletedTeamMemberID team { id } }
}`;

const teamPath = (uuid: string) => `/v2/organizations/acme/teams/${uuid}`;

describe('teams over GraphQL', () => {
  it('creates, reads, updates and deletes a team as the Terraform provider does, REST showing each change', async () => {
    const created = data(
      await world.gql(TEAM_CREATE, {
        organizationID: acmeId,
        name: 'Night Shift',
        description: 'after hours',
        privacy: 'SECRET',
        isDefaultTeam: false,
        defaultMemberRole: 'MAINTAINER',
        membersCanCreatePipelines: false,
        membersCanCreateSuites: false,
        membersCanDestroyRegistries: true,
      }),
    ).teamCreate;
    const team = created.teamEdge.node;
    expect(created.organization.id).toBe(acmeId);
    expect(team).toEqual({
      id: encodeGraphqlId('Team', team.uuid),
      uuid: team.uuid,
      name: 'Night Shift',
      slug: 'night-shift',
      description: 'after hours',
      privacy: 'SECRET',
      isDefaultTeam: false,
      defaultMemberRole: 'MAINTAINER',
      membersCanCreatePipelines: false,
      membersCanCreateSuites: false,
      membersCanCreateRegistries: true,
      membersCanDestroyRegistries: true,
      membersCanDestroyPackages: false,
    });
    expect(data(await world.gql(GET_NODE, { id: team.id })).node).toEqual(team);
    const rest = await world.call('GET', teamPath(team.uuid));
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ name: 'Night Shift', privacy: 'secret', default: false });

    const updated = data(
      await world.gql(TEAM_UPDATE, {
        id: team.id,
        name: 'Day Shift',
        description: null,
        privacy: 'VISIBLE',
        isDefaultTeam: true,
        defaultMemberRole: 'MEMBER',
        membersCanDestroyPackages: true,
      }),
    ).teamUpdate.team;
    expect(updated).toMatchObject({
      name: 'Day Shift',
      slug: 'day-shift',
      // Cleared, as a REST body's null clears it.
      description: '',
      privacy: 'VISIBLE',
      isDefaultTeam: true,
      defaultMemberRole: 'MEMBER',
      // Left out of the update: kept.
      membersCanCreatePipelines: false,
      membersCanDestroyPackages: true,
    });
    expect((await world.call('GET', teamPath(team.uuid))).body).toMatchObject({
      name: 'Day Shift',
      slug: 'day-shift',
      privacy: 'visible',
      default: true,
    });

    const deleted = data(await world.gql(TEAM_DELETE, { id: team.id })).teamDelete;
    expect(deleted).toEqual({ deletedTeamID: team.id, organization: { id: acmeId } });
    expect((await world.call('GET', teamPath(team.uuid))).status).toBe(404);
    expect(data(await world.gql(GET_NODE, { id: team.id })).node).toBeNull();
  });

  it('adds, changes and removes a member as the Terraform provider does, REST showing each change', async () => {
    const teamID = encodeGraphqlId('Team', teams.hidden as string);
    const userID = encodeGraphqlId('User', world.users.bystander.id);
    const created = data(await world.gql(TEAM_MEMBER_CREATE, { teamID, userID })).teamMemberCreate;
    const member = created.teamMemberEdge.node;
    expect(created.team).toEqual({ id: teamID });
    expect(member).toMatchObject({
      id: encodeGraphqlId('TeamMember', member.uuid),
      role: 'MEMBER',
      team: { id: teamID },
      user: { id: userID, email: 'bystander@acme.test' },
    });
    const members = `${teamPath(teams.hidden as string)}/members`;
    expect((await world.call('GET', members)).body).toContainEqual(
      expect.objectContaining({ user_id: world.users.bystander.id, role: 'member' }),
    );

    const updated = data(await world.gql(TEAM_MEMBER_UPDATE, { id: member.id, role: 'MAINTAINER' }));
    expect(updated.teamMemberUpdate.teamMember).toEqual({
      id: member.id,
      uuid: member.uuid,
      role: 'MAINTAINER',
    });
    expect(data(await world.gql(GET_NODE, { id: member.id })).node).toMatchObject({ role: 'MAINTAINER' });
    expect((await world.call('GET', members)).body).toContainEqual(
      expect.objectContaining({ user_id: world.users.bystander.id, role: 'maintainer' }),
    );

    const deleted = data(await world.gql(TEAM_MEMBER_DELETE, { id: member.id })).teamMemberDelete;
    expect(deleted).toEqual({ deletedTeamMemberID: member.id, team: { id: teamID } });
    expect((await world.call('GET', members)).body).not.toContainEqual(
      expect.objectContaining({ user_id: world.users.bystander.id }),
    );
    refused(await world.gql(TEAM_MEMBER_DELETE, { id: member.id }), 'No team member found');
  });

  it("lets a team's maintainer change their own team and its members, as REST does, and refuses other members", async () => {
    const platform = encodeGraphqlId('Team', teams.platform as string);
    const maintainer = await world.token('bystander');
    const bystanderID = encodeGraphqlId('User', world.users.bystander.id);
    // Not in the team yet: a member only reads it.
    const asOutsider = await world.gql(
      TEAM_UPDATE,
      {
        id: platform,
        name: 'Platform',
        privacy: 'VISIBLE',
        isDefaultTeam: false,
        defaultMemberRole: 'MEMBER',
      },
      { token: maintainer },
    );
    refused(asOutsider, 'Forbidden');
    const added = data(
      await world.gql(TEAM_MEMBER_CREATE, { teamID: platform, userID: bystanderID, role: 'MAINTAINER' }),
    ).teamMemberCreate.teamMemberEdge.node;
    const update = await world.gql(
      TEAM_UPDATE,
      {
        id: platform,
        name: 'Platform',
        privacy: 'VISIBLE',
        isDefaultTeam: false,
        defaultMemberRole: 'MEMBER',
      },
      { token: maintainer },
    );
    expect(data(update).teamUpdate.team.name).toBe('Platform');
    // A plain member of the team is refused, and nobody but an admin creates a team.
    refused(
      await world.gql(
        TEAM_UPDATE,
        { id: platform, name: 'Mine', privacy: 'VISIBLE', isDefaultTeam: false, defaultMemberRole: 'MEMBER' },
        { token: world.tokens.member },
      ),
      'Forbidden',
    );
    refused(
      await world.gql(
        TEAM_CREATE,
        {
          organizationID: acmeId,
          name: 'Rogue',
          privacy: 'VISIBLE',
          isDefaultTeam: false,
          defaultMemberRole: 'MEMBER',
        },
        { token: maintainer },
      ),
      'Forbidden',
    );
    data(await world.gql(TEAM_MEMBER_DELETE, { id: added.id }));
  });

  it('shows the switches a REST create stored, and REST keeps what GraphQL changed', async () => {
    const created = await world.call('POST', '/v2/organizations/acme/teams', {
      body: {
        name: 'Registry Keepers',
        members_can_destroy_packages: true,
        members_can_create_suites: false,
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = encodeGraphqlId('Team', created.body.id);
    expect(data(await world.gql(GET_NODE, { id })).node).toMatchObject({
      membersCanDestroyPackages: true,
      membersCanCreateSuites: false,
      membersCanCreateRegistries: true,
      membersCanDestroyRegistries: false,
    });
    const update = await world.call('PATCH', `/v2/organizations/acme/teams/${created.body.id}`, {
      body: { members_can_destroy_registries: true },
    });
    expect(update.status, update.text).toBe(200);
    expect(data(await world.gql(GET_NODE, { id })).node).toMatchObject({
      membersCanDestroyPackages: true,
      membersCanDestroyRegistries: true,
    });
    data(await world.gql(TEAM_DELETE, { id }));
  });

  it('refuses a token without write_teams with the scope error', async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'view_teams', 'read_organizations'] });
    refused(
      await world.gql(
        TEAM_CREATE,
        {
          organizationID: acmeId,
          name: 'Scoped',
          privacy: 'VISIBLE',
          isDefaultTeam: false,
          defaultMemberRole: 'MEMBER',
        },
        { token },
      ),
      "Your access token doesn't have the write_teams scope",
    );
  });

  it('finds teams by a part of their name', async () => {
    const query = `query($slug: ID!, $search: String) { organization(slug: $slug) {
      teams(first: 10, search: $search) { count edges { node { slug } } } } }`;
    const found = data(await world.gql(query, { slug: 'acme', search: 'PLAT' })).organization.teams;
    expect(found).toEqual({ count: 1, edges: [{ node: { slug: 'platform' } }] });
    const none = await world.gql(
      query,
      { slug: 'acme', search: 'nothing like it' },
      { token: world.tokens.member },
    );
    expect(data(none).organization.teams).toEqual({ count: 0, edges: [] });
  });
});

describe('organization members over GraphQL', () => {
  const MEMBERS = `query getOrganizationMemberByEmail($slug: ID!, $email: String, $search: String) {
    organization(slug: $slug) { members(first: 5, email: $email, search: $search) {
      count edges { node { id uuid role user { id uuid name email } } } } } }`;

  it('finds a member by email in any case, and by a part of the name or email', async () => {
    const byEmail = data(await world.gql(MEMBERS, { slug: 'acme', email: 'MEMBER@acme.test' }));
    expect(byEmail.organization.members.count).toBe(1);
    expect(byEmail.organization.members.edges[0].node).toMatchObject({
      role: 'MEMBER',
      user: { id: encodeGraphqlId('User', world.users.member.id), email: 'member@acme.test' },
    });
    const bySearch = data(await world.gql(MEMBERS, { slug: 'acme', search: 'bea' }));
    expect(
      bySearch.organization.members.edges.map(
        (edge: { node: { user: { email: string } } }) => edge.node.user.email,
      ),
    ).toEqual(['bystander@acme.test']);
    // `%` is a character, not a wildcard.
    expect(data(await world.gql(MEMBERS, { slug: 'acme', search: '%' })).organization.members.count).toBe(0);
  });
});

describe('organization settings over GraphQL', () => {
  const ALLOWLIST_UPDATE = `mutation setApiIpAddresses($organizationID: ID!, $ipAddresses: String!) {
    organizationApiIpAllowlistUpdate(input: { organizationID: $organizationID, ipAddresses: $ipAddresses }) {
      organization { allowedApiIpAddresses } } }`;
  const ORGANIZATION = `query getOrganization($slug: ID!) { organization(slug: $slug) {
    id uuid allowedApiIpAddresses membersRequireTwoFactorAuthentication } }`;
  const clearAllowlist = () =>
    world.server.database.sql.query(`update organizations set allowed_api_ip_addresses = ''`);

  it('enforces the API IP allowlist on REST and GraphQL: loopback allowed passes, another range is refused', async () => {
    try {
      const allowed = data(
        await world.gql(ALLOWLIST_UPDATE, { organizationID: acmeId, ipAddresses: '127.0.0.0/8  ::1' }),
      );
      expect(allowed.organizationApiIpAllowlistUpdate.organization).toEqual({
        allowedApiIpAddresses: '127.0.0.0/8 ::1',
      });
      expect(data(await world.gql(ORGANIZATION, { slug: 'acme' })).organization.allowedApiIpAddresses).toBe(
        '127.0.0.0/8 ::1',
      );
      expect((await world.call('GET', '/v2/organizations/acme/pipelines/web/builds')).status).toBe(200);

      data(await world.gql(ALLOWLIST_UPDATE, { organizationID: acmeId, ipAddresses: '10.0.0.0/8' }));
      const message = "Your IP address isn't allowed to access this organization";
      for (const path of [
        '/v2/organizations/acme',
        '/v2/organizations/acme/pipelines',
        '/v2/organizations/acme/pipelines/web/builds',
        `/v2/organizations/acme/teams/${teams.platform}`,
      ]) {
        const response = await world.call('GET', path);
        expect(response.status, path).toBe(403);
        expect(response.body, path).toEqual({ message });
      }
      refused(await world.gql(ORGANIZATION, { slug: 'acme' }), message);
      refused(await world.gql(`query { pipeline(slug: "acme/web") { name } }`), message);
      // By id, the organization's objects are as absent.
      expect(
        data(await world.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: acmeId })).node,
      ).toBeNull();
      // Another organization of the same user is not restricted.
      const outsider = await world.call('GET', '/v2/organizations/other', { token: world.tokens.outsider });
      expect(outsider.status).toBe(200);

      // An empty list restricts nothing.
      await clearAllowlist();
      expect((await world.call('GET', '/v2/organizations/acme/pipelines/web/builds')).status).toBe(200);
      data(await world.gql(ALLOWLIST_UPDATE, { organizationID: acmeId, ipAddresses: '' }));
      expect(data(await world.gql(ORGANIZATION, { slug: 'acme' })).organization.allowedApiIpAddresses).toBe(
        '',
      );
    } finally {
      await clearAllowlist();
    }
  });

  it('refuses an allowlist entry that is not an address or range, and a member', async () => {
    refused(
      await world.gql(ALLOWLIST_UPDATE, { organizationID: acmeId, ipAddresses: '127.0.0.1 nonsense' }),
      'Validation failed: Allowed api ip addresses "nonsense" is not an IP address or CIDR range',
    );
    refused(
      await world.gql(
        ALLOWLIST_UPDATE,
        { organizationID: acmeId, ipAddresses: '10.0.0.0/8' },
        { token: world.tokens.member },
      ),
      'Forbidden',
    );
    refused(
      await world.gql(
        ALLOWLIST_UPDATE,
        { organizationID: acmeId, ipAddresses: '' },
        { token: world.tokens.outsider },
      ),
      'No organization found',
    );
    expect(data(await world.gql(ORGANIZATION, { slug: 'acme' })).organization.allowedApiIpAddresses).toBe('');
  });

  it('stores and shows the two-factor requirement; only admins change it', async () => {
    const ENFORCE = `mutation setTwoFactor($organizationId: ID!, $value: Boolean!) {
      organizationEnforceTwoFactorAuthenticationForMembersUpdate(input: {
        organizationId: $organizationId, membersRequireTwoFactorAuthentication: $value }) {
        organization { id uuid membersRequireTwoFactorAuthentication } } }`;
    const on = data(await world.gql(ENFORCE, { organizationId: acmeId, value: true }));
    expect(on.organizationEnforceTwoFactorAuthenticationForMembersUpdate.organization).toMatchObject({
      id: acmeId,
      membersRequireTwoFactorAuthentication: true,
    });
    const read = await world.gql(ORGANIZATION, { slug: 'acme' }, { token: world.tokens.member });
    expect(data(read).organization.membersRequireTwoFactorAuthentication).toBe(true);
    refused(
      await world.gql(ENFORCE, { organizationId: acmeId, value: false }, { token: world.tokens.member }),
      'Forbidden',
    );
    data(await world.gql(ENFORCE, { organizationId: acmeId, value: false }));
    expect(
      data(await world.gql(ORGANIZATION, { slug: 'acme' })).organization
        .membersRequireTwoFactorAuthentication,
    ).toBe(false);
  });

  it('sets, reads, replaces and deletes the banner; only admins change it', async () => {
    const UPSERT = `mutation upsertBanner($organizationId: ID!, $message: String!) {
      organizationBannerUpsert(input: { organizationId: $organizationId, message: $message }) {
        banner { id uuid message } } }`;
    const DELETE = `mutation deleteBanner($organizationId: ID!) {
      organizationBannerDelete(input: { organizationId: $organizationId }) { deletedBannerId } }`;
    const READ = `query getOrganizationBanner($slug: ID!) { organization(slug: $slug) {
      banners(first: 1) { edges { node { id uuid message } } } } }`;
    const banner = data(await world.gql(UPSERT, { organizationId: acmeId, message: 'Maintenance at 5' }))
      .organizationBannerUpsert.banner;
    expect(banner).toEqual({
      id: encodeGraphqlId('OrganizationBanner', banner.uuid),
      uuid: banner.uuid,
      message: 'Maintenance at 5',
    });
    const seen = await world.gql(READ, { slug: 'acme' }, { token: world.tokens.member });
    expect(data(seen).organization.banners.edges).toEqual([{ node: banner }]);
    const replaced = data(await world.gql(UPSERT, { organizationId: acmeId, message: 'Done' }))
      .organizationBannerUpsert.banner;
    expect(replaced).toEqual({ ...banner, message: 'Done' });
    refused(
      await world.gql(UPSERT, { organizationId: acmeId, message: 'x' }, { token: world.tokens.member }),
      'Forbidden',
    );
    refused(
      await world.gql(UPSERT, { organizationId: acmeId, message: '  ' }),
      "Validation failed: Message can't be blank",
    );

    const NODE = `query getNode($id: ID!) { node(id: $id) { ... on OrganizationBanner { id uuid message } } }`;
    expect(data(await world.gql(NODE, { id: banner.id }, { token: world.tokens.member })).node).toEqual(
      replaced,
    );
    expect(data(await world.gql(NODE, { id: banner.id }, { token: world.tokens.outsider })).node).toBeNull();

    expect(data(await world.gql(DELETE, { organizationId: acmeId })).organizationBannerDelete).toEqual({
      deletedBannerId: banner.id,
    });
    expect(data(await world.gql(READ, { slug: 'acme' })).organization.banners.edges).toEqual([]);
    refused(await world.gql(DELETE, { organizationId: acmeId }), 'No banner found');
  });

  it('stores invitations that the invited user accepts through the admin CLI, joining with the role given', async () => {
    const INVITE = `mutation invite($organizationID: ID!, $emails: [String!]!, $role: OrganizationMemberRole,
      $teams: [OrganizationInvitationTeamAssignmentInput!]) {
      organizationInvitationCreate(input: { organizationID: $organizationID, emails: $emails, role: $role, teams: $teams }) {
        organization { id }
        invitationEdges { node { id uuid email role state createdBy { email } organization { id } } } } }`;
    const platform = encodeGraphqlId('Team', teams.platform as string);
    const invited = data(
      await world.gql(INVITE, {
        organizationID: acmeId,
        emails: ['Newcomer@Acme.test'],
        role: 'ADMIN',
        teams: [{ id: platform, role: 'MAINTAINER' }],
      }),
    ).organizationInvitationCreate;
    expect(invited.organization).toEqual({ id: acmeId });
    const invitation = invited.invitationEdges[0].node;
    expect(invitation).toMatchObject({
      email: 'newcomer@acme.test',
      role: 'ADMIN',
      state: 'PENDING',
      createdBy: { email: 'admin@acme.test' },
      organization: { id: acmeId },
    });
    refused(
      await world.gql(
        INVITE,
        { organizationID: acmeId, emails: ['x@acme.test'] },
        { token: world.tokens.member },
      ),
      'Forbidden',
    );
    refused(
      await world.gql(INVITE, {
        organizationID: acmeId,
        emails: ['x@acme.test'],
        teams: [{ id: acmeId, role: 'MEMBER' }],
      }),
      'Validation failed: Teams must be teams of the organization',
    );

    const { stdout } = await runCli(
      ['invitation', 'accept', '--id', invitation.uuid, '--name', 'Nia Newcomer', '--json'],
      { ...process.env, DATABASE_URL: world.server.url },
    );
    expect(JSON.parse(stdout.trim())).toMatchObject({ email: 'newcomer@acme.test', role: 'admin' });

    const members = (await world.call('GET', '/v2/organizations/acme/members?per_page=100')).body;
    expect(members).toContainEqual(
      expect.objectContaining({ name: 'Nia Newcomer', email: 'newcomer@acme.test' }),
    );
    const newcomer = members.find((member: { email: string }) => member.email === 'newcomer@acme.test');
    const inTeam = (await world.call('GET', `${teamPath(teams.platform as string)}/members`)).body;
    expect(inTeam).toContainEqual(expect.objectContaining({ user_id: newcomer.id, role: 'maintainer' }));
    const asMember = data(
      await world.gql(
        `query($slug: ID!, $email: String) { organization(slug: $slug) { members(first: 1, email: $email) {
          edges { node { role } } } } }`,
        { slug: 'acme', email: 'newcomer@acme.test' },
      ),
    );
    expect(asMember.organization.members.edges).toEqual([{ node: { role: 'ADMIN' } }]);
  });

  it("lists the organization's invitations to its admins by state and order, each a node of its own", async () => {
    const INVITE = `mutation InviteUser($organization: ID!, $emails: [String!]!) {
      organizationInvitationCreate(input: { organizationID: $organization, emails: $emails }) { clientMutationId } }`;
    const LIST = `query invitations($slug: ID!, $order: OrganizationInvitationOrders, $state: [OrganizationInvitationStates!]) {
      organization(slug: $slug) { invitations(first: 10, order: $order, state: $state) {
        count edges { node { id uuid email state } } } } }`;
    const NODE = `query getNode($id: ID!) { node(id: $id) { ... on OrganizationInvitation { id email state } } }`;
    data(await world.gql(INVITE, { organization: acmeId, emails: ['zed@acme.test', 'amy@acme.test'] }));
    const pending = data(await world.gql(LIST, { slug: 'acme', state: ['PENDING'] })).organization
      .invitations;
    const emails = (list: { edges: Array<{ node: { email: string } }> }) =>
      list.edges.map((edge) => edge.node.email);
    expect(emails(pending).slice(0, 2).sort()).toEqual(['amy@acme.test', 'zed@acme.test']);
    expect(pending.edges.every((edge: { node: { state: string } }) => edge.node.state === 'PENDING')).toBe(
      true,
    );
    const byEmail = data(await world.gql(LIST, { slug: 'acme', order: 'EMAIL' })).organization.invitations;
    expect(emails(byEmail)).toEqual([...emails(byEmail)].sort());
    expect(byEmail.count).toBe(byEmail.edges.length);
    const revoked = data(await world.gql(LIST, { slug: 'acme', state: ['REVOKED', 'EXPIRED'] }));
    expect(revoked.organization.invitations).toEqual({ count: 0, edges: [] });

    const amy = byEmail.edges.find(
      (edge: { node: { email: string } }) => edge.node.email === 'amy@acme.test',
    ).node;
    expect(amy.id).toBe(encodeGraphqlId('OrganizationInvitation', amy.uuid));
    expect(data(await world.gql(NODE, { id: amy.id })).node).toEqual({
      id: amy.id,
      email: 'amy@acme.test',
      state: 'PENDING',
    });
    expect(data(await world.gql(NODE, { id: amy.id }, { token: world.tokens.member })).node).toBeNull();
    const asMember = await world.gql(LIST, { slug: 'acme' }, { token: world.tokens.member });
    expect(asMember.body.data.organization.invitations).toBeNull();
    expect(asMember.body.errors.map((error: { message: string }) => error.message)).toEqual(['Forbidden']);
  });
});
