import { createAccessToken, revokeAccessToken } from './admin/access-tokens';
import { addMember, createOrganization, createUser } from './admin/organizations';
import { addTeamPipeline, createPipeline } from './admin/pipelines';
import { seedDemo } from './admin/seed-demo';
import { createTeam } from './admin/teams';
import { authenticate } from './auth/authenticate';
import { cancelBuild } from './builds/cancel-build';
import { createBuild } from './builds/create-build';
import { getBuild } from './builds/get-build';
import { listBuilds } from './builds/list-builds';
import { rebuildBuild } from './builds/rebuild-build';
import type { Deps } from './ports';

/** Every use case, bound to its dependencies: what transports and the CLI call. */
export function createUseCases(deps: Deps) {
  return {
    authenticate: authenticate(deps),
    listBuilds: listBuilds(deps),
    getBuild: getBuild(deps),
    createBuild: createBuild(deps),
    cancelBuild: cancelBuild(deps),
    rebuildBuild: rebuildBuild(deps),
    admin: {
      createOrganization: createOrganization(deps),
      createUser: createUser(deps),
      addMember: addMember(deps),
      createTeam: createTeam(deps),
      createPipeline: createPipeline(deps),
      addTeamPipeline: addTeamPipeline(deps),
      createAccessToken: createAccessToken(deps),
      revokeAccessToken: revokeAccessToken(deps),
      seedDemo: seedDemo(deps),
      isEmpty: async () => (await deps.repos.organizations.countAll()) === 0,
    },
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
