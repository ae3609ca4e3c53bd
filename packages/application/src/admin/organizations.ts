import {
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
