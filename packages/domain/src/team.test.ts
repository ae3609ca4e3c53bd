import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OrganizationRole, type PipelineAccess, TEAM_MEMBER_ROLES, type TeamMemberRole } from './access';
import { TEAM_PRIVACIES, type TeamPrivacy } from './entities';
import { isDomainError } from './errors';
import {
  canChangeTeamPipeline,
  canCreatePipelineForTeam,
  canCreateTeam,
  canManageTeam,
  canSeeTeam,
  MAX_TEAM_DESCRIPTION_LENGTH,
  MAX_TEAM_NAME_LENGTH,
  parseNewTeam,
  parseNewTeamMember,
  parseTeamChanges,
  parseTeamMemberChange,
  teamLastTeamOfPipelines,
  teamMemberNotInOrganization,
  teamMemberTaken,
  teamNameTaken,
} from './team';

const USER = '0190f3a1-1111-7abc-8def-0123456789ab';

const failure = (result: { ok: boolean; error?: unknown }) => {
  expect(result.ok).toBe(false);
  const error = (result as { error: unknown }).error;
  expect(isDomainError(error)).toBe(true);
  return error as { kind: string; code: string; message: string };
};

const ROLES: readonly OrganizationRole[] = ['admin', 'member'];
const TEAM_ROLES: ReadonlyArray<TeamMemberRole | null> = [null, ...TEAM_MEMBER_ROLES];

describe('who may do what with a team', () => {
  // Every organization role × team role × privacy: [can see, can manage].
  const table: Array<[OrganizationRole, TeamMemberRole | null, TeamPrivacy, boolean, boolean]> = [
    ['admin', null, 'visible', true, true],
    ['admin', null, 'secret', true, true],
    ['admin', 'member', 'visible', true, true],
    ['admin', 'member', 'secret', true, true],
    ['admin', 'maintainer', 'visible', true, true],
    ['admin', 'maintainer', 'secret', true, true],
    ['member', null, 'visible', true, false],
    ['member', null, 'secret', false, false],
    ['member', 'member', 'visible', true, false],
    ['member', 'member', 'secret', true, false],
    ['member', 'maintainer', 'visible', true, true],
    ['member', 'maintainer', 'secret', true, true],
  ];

  it('covers every combination once', () => {
    expect(table).toHaveLength(ROLES.length * TEAM_ROLES.length * TEAM_PRIVACIES.length);
  });

  it.each(table)(
    'an organization %s with team role %s on a %s team: sees it %s, manages it %s',
    (role, teamRole, privacy, sees, manages) => {
      expect(canSeeTeam(privacy, { role, teamRole })).toBe(sees);
      expect(canManageTeam({ role, teamRole })).toBe(manages);
    },
  );

  it('never lets anyone manage a team they cannot see', () => {
    for (const [role, teamRole, privacy] of table) {
      if (!canSeeTeam(privacy, { role, teamRole })) expect(canManageTeam({ role, teamRole })).toBe(false);
    }
  });

  // Organization role × team role × the team's members_can_create_pipelines → may create a pipeline for it.
  const creators: Array<[OrganizationRole, TeamMemberRole | null, boolean, boolean]> = [
    ['admin', null, false, true],
    ['admin', null, true, true],
    ['admin', 'member', false, true],
    ['admin', 'member', true, true],
    ['admin', 'maintainer', false, true],
    ['admin', 'maintainer', true, true],
    ['member', null, false, false],
    ['member', null, true, false],
    ['member', 'member', false, false],
    ['member', 'member', true, true],
    ['member', 'maintainer', false, true],
    ['member', 'maintainer', true, true],
  ];

  it.each(creators)(
    'an organization %s with team role %s (members may create pipelines: %s) may create a pipeline for the team: %s',
    (role, teamRole, membersCanCreatePipelines, expected) => {
      expect(creators).toHaveLength(ROLES.length * TEAM_ROLES.length * 2);
      expect(canCreatePipelineForTeam({ role, teamRole }, { membersCanCreatePipelines })).toBe(expected);
    },
  );

  it.each([
    ['admin', true],
    ['member', false],
  ] as const)('lets an organization %s create teams: %s', (role, expected) => {
    expect(canCreateTeam(role)).toBe(expected);
  });
});

describe('canChangeTeamPipeline', () => {
  const ACCESS: readonly PipelineAccess[] = [
    'none',
    'read_only',
    'build_and_read',
    'manage_build_and_read',
    'admin',
  ];

  it.each(ACCESS)('lets an admin change any association (their access: %s)', (access) => {
    for (const teamRole of TEAM_ROLES)
      expect(canChangeTeamPipeline({ role: 'admin', teamRole }, access)).toBe(true);
  });

  it.each<[PipelineAccess, boolean]>([
    ['none', false],
    ['read_only', false],
    ['build_and_read', false],
    ['manage_build_and_read', true],
  ])('lets a maintainer change an association when their own access is %s: %s', (access, expected) => {
    expect(canChangeTeamPipeline({ role: 'member', teamRole: 'maintainer' }, access)).toBe(expected);
  });

  it.each(ACCESS)('never lets a team member who is not a maintainer change one (access %s)', (access) => {
    expect(canChangeTeamPipeline({ role: 'member', teamRole: 'member' }, access)).toBe(false);
    expect(canChangeTeamPipeline({ role: 'member', teamRole: null }, access)).toBe(false);
  });
});

describe('parseNewTeam', () => {
  it('needs only a name, and gives the rest the defaults of the public API', () => {
    expect(parseNewTeam({ name: '  Fearless Frontenders ' })).toEqual({
      ok: true,
      value: {
        name: 'Fearless Frontenders',
        slug: 'fearless-frontenders',
        description: '',
        privacy: 'visible',
        isDefaultTeam: false,
        defaultMemberRole: 'member',
        membersCanCreatePipelines: true,
        membersCanCreateSuites: true,
        membersCanCreateRegistries: true,
        membersCanDestroyRegistries: false,
        membersCanDestroyPackages: false,
      },
    });
  });

  it('takes the suite and registry switches, as booleans only', () => {
    expect(
      parseNewTeam({
        name: 'a',
        members_can_create_suites: false,
        members_can_create_registries: false,
        members_can_destroy_registries: true,
        members_can_destroy_packages: true,
      }),
    ).toMatchObject({
      value: {
        membersCanCreateSuites: false,
        membersCanCreateRegistries: false,
        membersCanDestroyRegistries: true,
        membersCanDestroyPackages: true,
      },
    });
    expect(parseNewTeam({ name: 'a', members_can_destroy_packages: 'yes' })).toMatchObject({
      ok: false,
      error: { message: 'Validation failed: Members can destroy packages is not included in the list' },
    });
    expect(parseTeamChanges({ members_can_create_suites: false })).toEqual({
      ok: true,
      value: { membersCanCreateSuites: false },
    });
  });

  it("takes every field of the public API's create example, ignoring unknown ones", () => {
    expect(
      parseNewTeam({
        name: 'Barefoot Backenders',
        description: 'Backend engineers at Acme Inc',
        privacy: 'secret',
        is_default_team: true,
        default_member_role: 'maintainer',
        members_can_create_pipelines: false,
        slug: 'ignored',
        created_by: 'ignored',
      }),
    ).toEqual({
      ok: true,
      value: {
        name: 'Barefoot Backenders',
        slug: 'barefoot-backenders',
        description: 'Backend engineers at Acme Inc',
        privacy: 'secret',
        isDefaultTeam: true,
        defaultMemberRole: 'maintainer',
        membersCanCreatePipelines: false,
        membersCanCreateSuites: true,
        membersCanCreateRegistries: true,
        membersCanDestroyRegistries: false,
        membersCanDestroyPackages: false,
      },
    });
  });

  it('reads a null description as none', () => {
    expect(parseNewTeam({ name: 'a', description: null })).toMatchObject({ value: { description: '' } });
  });

  it.each<[string, unknown, string]>([
    ['an empty body', {}, "Name can't be blank"],
    ['no body at all', undefined, "Name can't be blank"],
    ['an array', ['name'], "Name can't be blank"],
    ['a blank name', { name: '   ' }, "Name can't be blank"],
    ['a null name', { name: null }, "Name can't be blank"],
    ['a numeric name', { name: 7 }, 'Name is invalid'],
    ['an object as name', { name: { first: 'a' } }, 'Name is invalid'],
    ['a name of punctuation', { name: '!!!' }, 'Name must contain at least one letter or digit'],
    [
      'a name with a NUL byte',
      { name: 'a\u0000b' },
      "Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a name with a lone surrogate',
      { name: 'a\ud800' },
      "Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a name that is too long',
      { name: 'x'.repeat(MAX_TEAM_NAME_LENGTH + 1) },
      `Name is too long (maximum is ${MAX_TEAM_NAME_LENGTH} characters)`,
    ],
    ['a numeric description', { name: 'a', description: 1 }, 'Description is invalid'],
    [
      'a description that is too long',
      { name: 'a', description: 'd'.repeat(MAX_TEAM_DESCRIPTION_LENGTH + 1) },
      `Description is too long (maximum is ${MAX_TEAM_DESCRIPTION_LENGTH} characters)`,
    ],
    [
      'a description with a NUL byte',
      { name: 'a', description: '\u0000' },
      "Description can't contain NUL characters or unpaired surrogates",
    ],
    ['an unknown privacy', { name: 'a', privacy: 'private' }, 'Privacy is not included in the list'],
    ['an upper-case privacy', { name: 'a', privacy: 'SECRET' }, 'Privacy is not included in the list'],
    ['a null privacy', { name: 'a', privacy: null }, 'Privacy is not included in the list'],
    [
      'a string is_default_team',
      { name: 'a', is_default_team: 'true' },
      'Is default team is not included in the list',
    ],
    [
      'a null is_default_team',
      { name: 'a', is_default_team: null },
      'Is default team is not included in the list',
    ],
    [
      'an unknown default_member_role',
      { name: 'a', default_member_role: 'owner' },
      'Default member role is not included in the list',
    ],
    [
      'a numeric members_can_create_pipelines',
      { name: 'a', members_can_create_pipelines: 1 },
      'Members can create pipelines is not included in the list',
    ],
    [
      'everything wrong',
      {
        name: '',
        description: [],
        privacy: 1,
        is_default_team: 0,
        default_member_role: 'MEMBER',
        members_can_create_pipelines: 'yes',
      },
      "Name can't be blank, Description is invalid, Privacy is not included in the list, Is default team is not included in the list, Default member role is not included in the list, Members can create pipelines is not included in the list",
    ],
  ])('refuses %s with 422 "Validation failed: %s"', (_name, body, reasons) => {
    expect(failure(parseNewTeam(body))).toMatchObject({
      kind: 'unprocessable',
      code: 'invalid_team',
      message: `Validation failed: ${reasons}`,
    });
  });

  it('accepts exactly the bodies with a usable name and valid settings (property)', () => {
    const privacy = fc.oneof(fc.constantFrom(...TEAM_PRIVACIES), fc.string(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.string(), privacy, fc.option(fc.boolean(), { nil: undefined }), (name, p, d) => {
        const result = parseNewTeam({ name, privacy: p, is_default_team: d });
        const trimmed = name.trim();
        const valid =
          /[a-z0-9]/i.test(trimmed) &&
          trimmed.length <= MAX_TEAM_NAME_LENGTH &&
          !trimmed.includes('\u0000') &&
          !/\p{Surrogate}/u.test(trimmed) &&
          (p === undefined || (TEAM_PRIVACIES as readonly string[]).includes(p));
        expect(result.ok).toBe(valid);
        if (result.ok) expect(result.value.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        else expect(result.error.message).toMatch(/^Validation failed: \S/);
      }),
    );
  });
});

describe('parseTeamChanges', () => {
  it('changes nothing for an empty body', () => {
    expect(parseTeamChanges({})).toEqual({ ok: true, value: {} });
    expect(parseTeamChanges(undefined)).toEqual({ ok: true, value: {} });
  });

  it('renames with a new slug and sets only what is named', () => {
    expect(parseTeamChanges({ name: 'New and Improved Backenders V2!', privacy: 'secret' })).toEqual({
      ok: true,
      value: {
        name: 'New and Improved Backenders V2!',
        slug: 'new-and-improved-backenders-v2',
        privacy: 'secret',
      },
    });
    expect(
      parseTeamChanges({
        description: null,
        is_default_team: true,
        default_member_role: 'maintainer',
        members_can_create_pipelines: false,
      }),
    ).toEqual({
      ok: true,
      value: {
        description: '',
        isDefaultTeam: true,
        defaultMemberRole: 'maintainer',
        membersCanCreatePipelines: false,
      },
    });
  });

  it.each<[string, unknown, string]>([
    ['a blank name', { name: ' ' }, "Name can't be blank"],
    ['a null name', { name: null }, "Name can't be blank"],
    ['a name of punctuation', { name: '---' }, 'Name must contain at least one letter or digit'],
    [
      'a bad privacy and role',
      { privacy: 'open', default_member_role: 'admin' },
      'Privacy is not included in the list, Default member role is not included in the list',
    ],
  ])('refuses %s with 422 "Validation failed: %s"', (_name, body, reasons) => {
    expect(failure(parseTeamChanges(body))).toMatchObject({ message: `Validation failed: ${reasons}` });
  });
});

describe('parseNewTeamMember', () => {
  it.each(TEAM_MEMBER_ROLES)('accepts a user UUID with role %s', (role) => {
    expect(parseNewTeamMember({ user_id: USER.toUpperCase(), role })).toEqual({
      ok: true,
      value: { userId: USER, role },
    });
  });

  it.each([undefined, null])('leaves a role of %j to the team default', (role) => {
    expect(parseNewTeamMember({ user_id: USER, role })).toEqual({
      ok: true,
      value: { userId: USER, role: null },
    });
  });

  it.each<[string, unknown, string]>([
    ['an empty body', {}, "User can't be blank"],
    ['no body', null, "User can't be blank"],
    ['a blank user_id', { user_id: ' ' }, "User can't be blank"],
    ['an email as user_id', { user_id: 'a@b.c' }, 'User is invalid'],
    ['a numeric user_id', { user_id: 5 }, 'User is invalid'],
    ['a user_id with a NUL byte', { user_id: `${USER}\u0000` }, 'User is invalid'],
    ['an unknown role', { user_id: USER, role: 'admin' }, 'Role is not included in the list'],
    ['an empty role', { user_id: USER, role: '' }, 'Role is not included in the list'],
    ['an upper-case role', { user_id: USER, role: 'MEMBER' }, 'Role is not included in the list'],
    ['both wrong', { user_id: 'x', role: 1 }, 'User is invalid, Role is not included in the list'],
  ])('refuses %s with 422 "Validation failed: %s"', (_name, body, reasons) => {
    expect(failure(parseNewTeamMember(body))).toMatchObject({
      kind: 'unprocessable',
      code: 'invalid_team_member',
      message: `Validation failed: ${reasons}`,
    });
  });
});

describe('parseTeamMemberChange', () => {
  it.each(TEAM_MEMBER_ROLES)('accepts role %s and ignores a user_id', (role) => {
    expect(parseTeamMemberChange({ role, user_id: 'nope' })).toEqual({ ok: true, value: { role } });
  });

  it.each<[string, unknown, string]>([
    ['an empty body', {}, "Role can't be blank"],
    ['a null role', { role: null }, "Role can't be blank"],
    ['an empty role', { role: '' }, "Role can't be blank"],
    ['an unknown role', { role: 'owner' }, 'Role is not included in the list'],
    ['a boolean role', { role: true }, 'Role is not included in the list'],
  ])('refuses %s with 422 "Validation failed: %s"', (_name, body, reasons) => {
    expect(failure(parseTeamMemberChange(body))).toMatchObject({ message: `Validation failed: ${reasons}` });
  });
});

describe('the refusals the caller decides', () => {
  it.each([
    [teamNameTaken, 'Validation failed: Name has already been taken'],
    [teamMemberTaken, 'Validation failed: User has already been taken'],
    [teamMemberNotInOrganization, 'Validation failed: User must be a member of the organization'],
  ])('%o answers 422 "%s"', (make, message) => {
    expect(make()).toMatchObject({ kind: 'unprocessable', message });
  });

  it.each([
    [
      1,
      "The team can't be deleted: it is the only team of 1 pipeline, and a pipeline must belong to at least one team",
    ],
    [
      3,
      "The team can't be deleted: it is the only team of 3 pipelines, and a pipeline must belong to at least one team",
    ],
  ])('refuses to delete the last team of %i pipeline(s) with 422', (count, message) => {
    expect(teamLastTeamOfPipelines(count)).toMatchObject({
      kind: 'unprocessable',
      code: 'last_team',
      message,
    });
  });
});
