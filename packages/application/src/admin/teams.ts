import { slugify, type Team, unprocessable } from '@ci/domain';
import type { Deps } from '../ports';
import { findOrganization, findUser } from './organizations';

export const createTeam =
  (deps: Deps) =>
  async (input: { organization: string; name: string; members?: string[] }): Promise<Team> => {
    const organization = await findOrganization(deps)(input.organization);
    const name = input.name.trim();
    const slug = slugify(name);
    if (!slug) throw unprocessable('invalid_name', 'Validation failed: Name must contain a letter or digit');
    if (await deps.repos.teams.findBySlug(organization.id, slug)) {
      throw unprocessable('name_taken', 'Validation failed: Name has already been taken');
    }
    const members = await Promise.all((input.members ?? []).map((email) => findUser(deps)(email)));
    const now = deps.clock.now();
    const team: Team = {
      id: deps.newId(),
      organizationId: organization.id,
      slug,
      name,
      description: null,
      privacy: 'visible',
      isDefaultTeam: false,
      createdAt: now,
    };
    await deps.repos.teams.insert(team);
    for (const user of members) {
      await deps.repos.teams.putMember({ teamId: team.id, userId: user.id, role: 'member', at: now });
    }
    return team;
  };
