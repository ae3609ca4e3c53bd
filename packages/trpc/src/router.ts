import { accessTokenRouter } from './access-tokens/access-token.router';
import { buildsRouter } from './builds/builds.router';
import { organizationsRouter } from './organizations/organizations.router';
import { registriesRouter } from './registries/registries.router';
import { teamPipelinesRouter } from './team-pipelines/team-pipelines.router';
import { router } from './trpc';
import { userRouter } from './users/user.router';

/** Every procedure: typed tRPC under /trpc, and through its OpenAPI metadata, REST under /v2. */
export const appRouter = router({
  builds: buildsRouter,
  registries: registriesRouter,
  teamPipelines: teamPipelinesRouter,
  accessToken: accessTokenRouter,
  user: userRouter,
  organizations: organizationsRouter,
});

export type AppRouter = typeof appRouter;
