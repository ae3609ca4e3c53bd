import { randomUUID } from 'node:crypto';
import { type Scope, TEAM_MEMBER_ROLES } from '@ci/domain';
import { TeamMemberWire, TeamWire } from '@ci/trpc';
import { expect } from 'vitest';
import { exampleKeys, ISO_MS_Z } from './answers';
import { startWorld, teamIds } from './world';

export { API_URL, WEB_URL } from './world';

/** The keys of the public example of a team (teams-get.json) and of a team member, in their order. */
const TEAM_KEYS = exampleKeys('teams-get.json');
const TEAM_MEMBER_KEYS = ['role', 'created_at', 'user_id', 'user_name'];
const USER_KEYS = ['id', 'graphql_id', 'name', 'email', 'avatar_url', 'created_at'];

/**
 * The shared test world (test/support/world.ts) seen from the teams tests, with a maintainer and a
 * secret team:
 *
 * - `admin` (admin of `acme`); `member` (member of team `platform`); `maintainer` (a member of `acme`
 *   and maintainer of `platform`); `bystander` (member of `acme`, in no team but `covert`);
 *   `outsider` (admin of `other`, not in `acme`)
 * - `platform` (visible: member, maintainer) has `web` (manage_build_and_read), `api`, `docs`, …;
 *   `hidden` (visible, nobody) has `secret`; `covert` (secret, made over the API by `admin`: bystander)
 */
export async function startTeamsWorld() {
  const world = await startWorld();
  const { server, call } = world;
  const admin = server.useCases.admin;
  const maintainerUser = await admin.createUser({ name: 'Mia Maintainer', email: 'maintainer@acme.test' });
  await admin.addMember({ organization: 'acme', email: maintainerUser.email, role: 'member' });
  const ids = await teamIds(world);
  await server.database.repos.teams.putMember({
    id: randomUUID(),
    teamId: ids.platform!,
    userId: maintainerUser.id,
    role: 'maintainer',
    at: new Date(),
  });

  const users = { ...world.users, maintainer: maintainerUser };
  type Cast = keyof typeof users;
  const token = (user: Cast, options?: Parameters<typeof world.token>[1]) =>
    user === 'maintainer'
      ? admin
          .createAccessToken({
            email: maintainerUser.email,
            scopes: options?.scopes ?? 'all',
            ...(options?.organizations ? { organizations: options.organizations } : {}),
          })
          .then((created) => created.secret)
      : world.token(user, options);
  const tokens = { ...world.tokens, maintainer: await token('maintainer') };

  const teamsPath = (organization = 'acme') => `/v2/organizations/${organization}/teams`;
  const teamPath = (team: string, rest = '', organization = 'acme') =>
    `${teamsPath(organization)}/${team}${rest}`;
  const membersPath = (team: string, rest = '', organization = 'acme') =>
    teamPath(team, `/members${rest}`, organization);

  /** Creates a team through the API (as `admin` unless told) and returns its body; fails on anything but 201. */
  const createTeam = async (
    body: Record<string, unknown>,
    options: { token?: string; organization?: string } = {},
  ) => {
    const response = await call('POST', teamsPath(options.organization), {
      token: options.token ?? tokens.admin,
      body,
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
    return response.body as TeamWire;
  };

  /** Adds a member through the API (as `admin` unless told); fails on anything but 201. */
  const addMember = async (team: string, body: Record<string, unknown>, options: { token?: string } = {}) => {
    const response = await call('POST', membersPath(team), { token: options.token ?? tokens.admin, body });
    if (response.status !== 201) throw new Error(`add member failed: ${response.status} ${response.text}`);
    return response.body as TeamMemberWire;
  };

  const covert = await createTeam({ name: 'Covert', privacy: 'secret', description: 'Nobody knows' });
  await addMember(covert.id, { user_id: users.bystander.id, role: 'member' });
  const teams = { ...(await teamIds(world)), covert: covert.id } as Record<string, string> & {
    platform: string;
    hidden: string;
    covert: string;
  };

  /** Every team, membership and association, as rows: what a refused request must leave as it was. */
  const rows = async () => ({
    teams: await server.database.sql.query(
      `select t.id, o.slug as organization, t.slug, t.name, t.description, t.privacy, t.is_default_team,
         t.default_member_role, t.members_can_create_pipelines, t.created_by_id, t.created_at
       from teams t join organizations o on o.id = t.organization_id order by t.created_at, t.id`,
    ),
    members: await server.database.sql.query(
      'select team_id, user_id, role, created_at from team_members order by team_id, user_id',
    ),
    pipelines: await server.database.sql.query(
      'select team_id, pipeline_id, access_level from team_pipelines order by team_id, pipeline_id',
    ),
  });

  return {
    ...world,
    users,
    tokens,
    token: token as (
      user: Cast,
      options?: { scopes?: Scope[] | 'all'; organizations?: string[] },
    ) => Promise<string>,
    teams,
    teamsPath,
    teamPath,
    membersPath,
    createTeam,
    addMember,
    rows,
  };
}

export type TeamsWorld = Awaited<ReturnType<typeof startTeamsWorld>>;

/** A team body: the example's keys in their order, valid against the wire schema, created_by's keys too. */
export function expectTeam(body: unknown): TeamWire {
  expect(Object.keys(body as object)).toEqual(TEAM_KEYS);
  const team = TeamWire.parse(body);
  expect(team.created_at).toMatch(ISO_MS_Z);
  if (team.created_by) {
    expect(Object.keys(team.created_by)).toEqual(USER_KEYS);
    expect(team.created_by.created_at).toMatch(ISO_MS_Z);
  }
  return team;
}

/** A team member body: the public API's keys in their order, valid against the wire schema. */
export function expectTeamMember(body: unknown): TeamMemberWire {
  expect(Object.keys(body as object)).toEqual(TEAM_MEMBER_KEYS);
  const member = TeamMemberWire.parse(body);
  expect(member.created_at).toMatch(ISO_MS_Z);
  expect(TEAM_MEMBER_ROLES).toContain(member.role);
  return member;
}
