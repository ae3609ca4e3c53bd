import {
  allows,
  type OrganizationRole,
  type PipelineAccess,
  TEAM_MEMBER_ROLES,
  type TeamMemberRole,
} from './access';
import { readDescription, readSluggedName, readUuidField, reasonsOf } from './body-fields';
import { TEAM_PRIVACIES, type TeamPrivacy } from './entities';
import { type DomainError, unprocessable } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { slugify } from './slug';

export const MAX_TEAM_NAME_LENGTH = 255;
export const MAX_TEAM_DESCRIPTION_LENGTH = 1000;

export function isTeamPrivacy(s: string): s is TeamPrivacy {
  return (TEAM_PRIVACIES as readonly string[]).includes(s);
}

export function isTeamMemberRole(s: string): s is TeamMemberRole {
  return (TEAM_MEMBER_ROLES as readonly string[]).includes(s);
}

/** Who is looking at a team: their role in the organization and in the team (null: not in it). */
export interface TeamViewer {
  role: OrganizationRole;
  teamRole: TeamMemberRole | null;
}

/**
 * A `secret` team exists only for organization admins and its own members; everyone else is told it
 * does not exist (404 `No team found`). A `visible` team is seen by every member of the organization.
 */
export function canSeeTeam(privacy: TeamPrivacy, viewer: TeamViewer): boolean {
  return privacy === 'visible' || viewer.role === 'admin' || viewer.teamRole !== null;
}

/**
 * The public API's permissions: organization admins manage every team, a team's maintainers manage
 * that team (its settings, its members, its pipelines, deleting it); members only read.
 */
export function canManageTeam(viewer: TeamViewer): boolean {
  return viewer.role === 'admin' || viewer.teamRole === 'maintainer';
}

/** Only organization admins create teams (the public API's organization-level permission). */
export function canCreateTeam(role: OrganizationRole): boolean {
  return role === 'admin';
}

/**
 * Creating a pipeline for a team (the team gets the new pipeline): admins always; a team's maintainers;
 * its members when the team lets them (`members_can_create_pipelines`, the public API's team setting);
 * nobody outside the team.
 */
export function canCreatePipelineForTeam(
  viewer: TeamViewer,
  team: { membersCanCreatePipelines: boolean },
): boolean {
  if (viewer.role === 'admin' || viewer.teamRole === 'maintainer') return true;
  return viewer.teamRole === 'member' && team.membersCanCreatePipelines;
}

/**
 * Changing what a team may do on a pipeline: whoever manages the team, and for a maintainer who is not
 * an admin, only on a pipeline they may edit themselves (`manage_build_and_read` through one of their
 * teams), as in the public API. Otherwise a maintainer could give their own team any pipeline, or
 * raise its level, and so gain access nobody granted them.
 */
export function canChangeTeamPipeline(viewer: TeamViewer, access: PipelineAccess): boolean {
  return canManageTeam(viewer) && (viewer.role === 'admin' || allows(access, 'manage'));
}

/** A validated create-team body, with the public API's defaults for what it leaves out. */
export interface NewTeam {
  name: string;
  slug: string;
  description: string;
  privacy: TeamPrivacy;
  isDefaultTeam: boolean;
  defaultMemberRole: TeamMemberRole;
  membersCanCreatePipelines: boolean;
  membersCanCreateSuites: boolean;
  membersCanCreateRegistries: boolean;
  membersCanDestroyRegistries: boolean;
  membersCanDestroyPackages: boolean;
}

/** The fields an update sets; a new name brings its new slug. */
export type TeamChanges = Partial<NewTeam>;

export const TEAM_DEFAULTS = {
  description: '',
  privacy: 'visible',
  isDefaultTeam: false,
  defaultMemberRole: 'member',
  membersCanCreatePipelines: true,
  membersCanCreateSuites: true,
  membersCanCreateRegistries: true,
  membersCanDestroyRegistries: false,
  membersCanDestroyPackages: false,
} as const satisfies Omit<NewTeam, 'name' | 'slug'>;

/**
 * Reads a create body `{name, description, privacy, is_default_team, default_member_role,
 * members_can_create_pipelines, members_can_create_suites, members_can_create_registries,
 * members_can_destroy_registries, members_can_destroy_packages}`. Only `name` is required; every reason is reported at once in the
 * Rails form of the public API (`Validation failed: Name can't be blank, Privacy is not included in the
 * list`). Unknown fields are ignored; a body that is not a JSON object has none of the fields.
 */
export function parseNewTeam(body: unknown): Result<NewTeam> {
  const input = isJsonObject(body) ? body : {};
  const name = readSluggedName(input.name, MAX_TEAM_NAME_LENGTH);
  const settings = readSettings(input);
  if (!name.ok || !settings.ok) return err(invalidTeam(reasonsOf(name, settings)));
  return ok({ name: name.value, slug: slugify(name.value), ...TEAM_DEFAULTS, ...settings.value });
}

/** Reads an update body: every field optional, the same rules as on create; `{}` changes nothing. */
export function parseTeamChanges(body: unknown): Result<TeamChanges> {
  const input = isJsonObject(body) ? body : {};
  const name = input.name === undefined ? ok(undefined) : readSluggedName(input.name, MAX_TEAM_NAME_LENGTH);
  const settings = readSettings(input);
  if (!name.ok || !settings.ok) return err(invalidTeam(reasonsOf(name, settings)));
  return ok({
    ...(name.value !== undefined && { name: name.value, slug: slugify(name.value) }),
    ...settings.value,
  });
}

/** Team slugs are unique per organization; the caller knows when one is taken. */
export function teamNameTaken(): DomainError {
  return invalidTeam(['Name has already been taken']);
}

/**
 * decisions.md: a pipeline keeps at least one team. Deleting a team that is the only team of some
 * pipelines would leave them without one, so it is refused until they have another team.
 */
export function teamLastTeamOfPipelines(count: number): DomainError {
  const pipelines = count === 1 ? '1 pipeline' : `${count} pipelines`;
  return unprocessable(
    'last_team',
    `The team can't be deleted: it is the only team of ${pipelines}, and a pipeline must belong to at least one team`,
  );
}

/** A validated add-team-member body; `role` null: the team's default member role. */
export interface NewTeamMember {
  /** lowercase UUID; whether the user is in the organization is the caller's question */
  userId: string;
  role: TeamMemberRole | null;
}

/** Reads an add body `{user_id, role}`; `role` may be left out (the team's `default_member_role`). */
export function parseNewTeamMember(body: unknown): Result<NewTeamMember> {
  const input = isJsonObject(body) ? body : {};
  const userId = readUuidField(input.user_id, 'User');
  const role =
    input.role === undefined || input.role === null ? ok(null) : readRole(input.role, { required: false });
  if (!userId.ok || !role.ok) return err(invalidTeamMember(reasonsOf(userId, role)));
  return ok({ userId: userId.value, role: role.value });
}

/** Reads an update body `{role}`: the only thing about a membership that changes. */
export function parseTeamMemberChange(body: unknown): Result<{ role: TeamMemberRole }> {
  const input = isJsonObject(body) ? body : {};
  const role = readRole(input.role, { required: true });
  if (!role.ok) return err(invalidTeamMember([role.error]));
  return ok({ role: role.value });
}

/**
 * A user who is not a member of the team's organization. Unknown users answer the same, so the answer
 * reveals nothing about users elsewhere.
 */
export function teamMemberNotInOrganization(): DomainError {
  return invalidTeamMember(['User must be a member of the organization']);
}

/** The user is in the team already (the membership's key is team + user). */
export function teamMemberTaken(): DomainError {
  return invalidTeamMember(['User has already been taken']);
}

type Settings = Omit<TeamChanges, 'name' | 'slug'>;

/** The team's yes/no settings: body key, field, and the name a refusal gives it. */
const TEAM_SWITCHES = [
  ['members_can_create_pipelines', 'membersCanCreatePipelines', 'Members can create pipelines'],
  ['members_can_create_suites', 'membersCanCreateSuites', 'Members can create suites'],
  ['members_can_create_registries', 'membersCanCreateRegistries', 'Members can create registries'],
  ['members_can_destroy_registries', 'membersCanDestroyRegistries', 'Members can destroy registries'],
  ['members_can_destroy_packages', 'membersCanDestroyPackages', 'Members can destroy packages'],
] as const satisfies ReadonlyArray<readonly [string, keyof Settings, string]>;

/** The optional fields, each checked only when present; null clears the description. */
function readSettings(input: Record<string, unknown>): Result<Settings, string[]> {
  const reasons: string[] = [];
  const settings: Settings = {};
  const { description, privacy } = input;
  if (description !== undefined) {
    const read = readDescription(description, MAX_TEAM_DESCRIPTION_LENGTH);
    if (read.ok) settings.description = read.value ?? '';
    else reasons.push(read.error);
  }
  if (privacy !== undefined) {
    if (typeof privacy === 'string' && isTeamPrivacy(privacy)) settings.privacy = privacy;
    else reasons.push('Privacy is not included in the list');
  }
  const isDefaultTeam = readBoolean(input.is_default_team, 'Is default team');
  if (typeof isDefaultTeam === 'string') reasons.push(isDefaultTeam);
  else if (isDefaultTeam !== undefined) settings.isDefaultTeam = isDefaultTeam.value;
  const role = input.default_member_role;
  if (role !== undefined) {
    if (typeof role === 'string' && isTeamMemberRole(role)) settings.defaultMemberRole = role;
    else reasons.push('Default member role is not included in the list');
  }
  for (const [key, field, label] of TEAM_SWITCHES) {
    const read = readBoolean(input[key], label);
    if (typeof read === 'string') reasons.push(read);
    else if (read !== undefined) settings[field] = read.value;
  }
  return reasons.length ? err(reasons) : ok(settings);
}

/** JSON booleans only: a string "true" is as wrong as any other non-boolean. */
function readBoolean(value: unknown, label: string): { value: boolean } | string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'boolean' ? { value } : `${label} is not included in the list`;
}

function readRole(value: unknown, { required }: { required: boolean }): Result<TeamMemberRole, string> {
  if (required && (value === undefined || value === null || value === '')) return err("Role can't be blank");
  if (typeof value !== 'string' || !isTeamMemberRole(value)) return err('Role is not included in the list');
  return ok(value);
}

function invalidTeam(reasons: readonly string[]): DomainError {
  return unprocessable('invalid_team', `Validation failed: ${reasons.join(', ')}`);
}

function invalidTeamMember(reasons: readonly string[]): DomainError {
  return unprocessable('invalid_team_member', `Validation failed: ${reasons.join(', ')}`);
}
