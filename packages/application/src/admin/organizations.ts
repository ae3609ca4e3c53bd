import {
  invitationAlreadyAccepted,
  isUuid,
  ORGANIZATION_SETTINGS_DEFAULTS,
  type Organization,
  type OrganizationRole,
  slugify,
  type User,
  unprocessable,
} from '@ci/domain';
import type { Deps } from '../ports';

/** Operator commands (the CLI): they act with the database's authority, not a token's. */

export const createOrganization =
  (deps: Deps) =>
  async (input: { name: string; slug?: string }): Promise<Organization> => {
    const name = input.name.trim();
    const slug = slugify(input.slug ?? name);
    if (!name || !slug)
      throw unprocessable('invalid_name', 'Validation failed: Name must contain a letter or digit');
    if (await deps.repos.organizations.findBySlug(slug)) {
      throw unprocessable('slug_taken', `Validation failed: Slug ${slug} has already been taken`);
    }
    const organization: Organization = {
      id: deps.newId(),
      slug,
      name,
      createdAt: deps.clock.now(),
      ...ORGANIZATION_SETTINGS_DEFAULTS,
    };
    await deps.repos.organizations.insert(organization);
    return organization;
  };

export const createUser =
  (deps: Deps) =>
  async (input: { name: string; email: string }): Promise<User> => {
    const name = input.name.trim();
    const email = input.email.trim().toLowerCase();
    if (!name) throw unprocessable('invalid_name', "Validation failed: Name can't be blank");
    if (!/^[^\s@]+@[^\s@]+$/.test(email))
      throw unprocessable('invalid_email', 'Validation failed: Email is invalid');
    if (await deps.repos.users.findByEmail(email)) {
      throw unprocessable('email_taken', 'Validation failed: Email has already been taken');
    }
    const user: User = { id: deps.newId(), name, email, avatarUrl: null, createdAt: deps.clock.now() };
    await deps.repos.users.insert(user);
    return user;
  };

export const findOrganization = (deps: Deps) => async (slug: string) => {
  const organization = await deps.repos.organizations.findBySlug(slug);
  if (!organization) throw unprocessable('organization_not_found', `No organization found with slug ${slug}`);
  return organization;
};

export const findUser = (deps: Deps) => async (email: string) => {
  const user = await deps.repos.users.findByEmail(email.trim().toLowerCase());
  if (!user) throw unprocessable('user_not_found', `No user found with email ${email}`);
  return user;
};

export const addMember =
  (deps: Deps) => async (input: { organization: string; email: string; role: OrganizationRole }) => {
    const organization = await findOrganization(deps)(input.organization);
    const user = await findUser(deps)(input.email);
    // A new member joins the organization's default teams, with each team's default role (the public
    // API's `is_default_team` and `default_member_role`); a member whose role changes keeps their teams.
    const defaultTeams = await deps.repos.teams.defaultTeams(organization.id);
    await deps.repos.organizations.putMember({
      id: deps.newId(),
      organizationId: organization.id,
      userId: user.id,
      role: input.role,
      at: deps.clock.now(),
      teamsIfNew: defaultTeams.map((team) => ({
        id: deps.newId(),
        teamId: team.id,
        role: team.defaultMemberRole,
      })),
    });
    return { organization, user, role: input.role };
  };

/**
 * The invited user accepts an invitation (`invitation accept`): the user with the invitation's email
 * (made now, named `name` or the email's local part, when there is none) becomes a member with the
 * invitation's role, joining its teams and the organization's default teams. An invitation is accepted
 * once; a user who is a member already gets the invitation's role and keeps their teams.
 */
export const acceptInvitation = (deps: Deps) => async (input: { invitation: string; name?: string }) => {
  const invitation = isUuid(input.invitation)
    ? await deps.repos.organizationSettings.findInvitation(input.invitation.toLowerCase())
    : null;
  if (!invitation)
    throw unprocessable('invitation_not_found', `No invitation found with id ${input.invitation}`);
  if (invitation.acceptedAt) throw invitationAlreadyAccepted();
  const user =
    (await deps.repos.users.findByEmail(invitation.email)) ??
    (await createUser(deps)({
      name: input.name ?? invitation.email.split('@')[0] ?? invitation.email,
      email: invitation.email,
    }));
  const at = deps.clock.now();
  if (!(await deps.repos.organizationSettings.acceptInvitation({ id: invitation.id, userId: user.id, at }))) {
    throw invitationAlreadyAccepted();
  }
  // Teams deleted since the invitation are left out.
  const remaining = new Set(
    await deps.repos.organizationSettings.teamsIn({
      organizationId: invitation.organizationId,
      teamIds: invitation.teams.map((team) => team.teamId),
    }),
  );
  const invited = new Map(
    invitation.teams.filter((team) => remaining.has(team.teamId)).map((team) => [team.teamId, team.role]),
  );
  for (const team of await deps.repos.teams.defaultTeams(invitation.organizationId)) {
    if (!invited.has(team.id)) invited.set(team.id, team.defaultMemberRole);
  }
  await deps.repos.organizations.putMember({
    id: deps.newId(),
    organizationId: invitation.organizationId,
    userId: user.id,
    role: invitation.role,
    at,
    teamsIfNew: [...invited].map(([teamId, role]) => ({ id: deps.newId(), teamId, role })),
  });
  return { invitation: { ...invitation, acceptedAt: at, acceptedById: user.id }, user };
};
