import { buildsRouter } from './builds/builds.router';
import { pipelinesRouter } from './pipelines/pipelines.router';
import { registriesRouter } from './registries/registries.router';
import { teamPipelinesRouter } from './team-pipelines/team-pipelines.router';
import { teamMembersRouter, teamsRouter } from './teams/teams.router';
import { router } from './trpc';

/** Every procedure: typed tRPC under /trpc, and through its OpenAPI metadata, REST under /v2. */
export const appRouter = router({
  builds: buildsRouter,
  pipelines: pipelinesRouter,
  registries: registriesRouter,
  teamPipelines: teamPipelinesRouter,
  teams: teamsRouter,
  teamMembers: teamMembersRouter,
});

export type AppRouter = typeof appRouter;
