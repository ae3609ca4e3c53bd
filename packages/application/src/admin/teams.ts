import { slugify, TEAM_DEFAULTS, type Team, teamNameTaken, unprocessable } from '@ci/domain';
import type { Deps } from '../ports';
import { findOrganization, findUser } from './organizations';

/** Teams made by an operator have no `created_by`: no user made them through the API. */
export const createTeam =
  (deps: Deps) =>
  async (input: { organization: string; name: string; members?: string[] }): Promise<Team> => {
    const organization = await findOrganization(deps)(input.organization);
    const name = input.name.trim();
    const slug = slugify(name);
    if (!slug) throw unprocessable('invalid_name', 'Validation failed: Name must contain a letter or digit');
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
      defaultMemberRole: 'member',
      membersCanCreatePipelines: true,
      membersCanCreateSuites: TEAM_DEFAULTS.membersCanCreateSuites,
      membersCanCreateRegistries: TEAM_DEFAULTS.membersCanCreateRegistries,
      membersCanDestroyRegistries: TEAM_DEFAULTS.membersCanDestroyRegistries,
      membersCanDestroyPackages: TEAM_DEFAULTS.membersCanDestroyPackages,
      createdById: null,
      createdAt: now,
    };
    if ((await deps.repos.teams.insert(team)) === 'slug_taken') throw teamNameTaken();
    for (const user of members) {
      await deps.repos.teams.putMember({
        id: deps.newId(),
        teamId: team.id,
        userId: user.id,
        role: 'member',
        at: now,
      });
    }
    return team;
  };
