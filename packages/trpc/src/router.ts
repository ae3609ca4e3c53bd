import { accessTokenRouter } from './access-tokens/access-token.router';
import { agentsRouter } from './agents/agents.router';
import { annotationsRouter } from './annotations/annotations.router';
import { artifactsRouter } from './artifacts/artifacts.router';
import { buildsRouter } from './builds/builds.router';
import { clusterQueuesRouter, clustersRouter, clusterTokensRouter } from './clusters/clusters.router';
import { jobsRouter } from './jobs/jobs.router';
import { notificationServicesRouter } from './notifications/notification-services.router';
import { organizationsRouter } from './organizations/organizations.router';
import { pipelineSchedulesRouter } from './pipeline-schedules/pipeline-schedules.router';
import { pipelineTriggersRouter } from './pipeline-triggers/pipeline-triggers.router';
import { pipelinesRouter } from './pipelines/pipelines.router';
import { registriesRouter } from './registries/registries.router';
import { teamPipelinesRouter } from './team-pipelines/team-pipelines.router';
import { teamMembersRouter, teamsRouter } from './teams/teams.router';
import { router } from './trpc';
import { userRouter } from './users/user.router';

/** Every procedure: typed tRPC under /trpc, and through its OpenAPI metadata, REST under /v2. */
export const appRouter = router({
  builds: buildsRouter,
  pipelines: pipelinesRouter,
  pipelineTriggers: pipelineTriggersRouter,
  pipelineSchedules: pipelineSchedulesRouter,
  registries: registriesRouter,
  clusters: clustersRouter,
  clusterQueues: clusterQueuesRouter,
  clusterTokens: clusterTokensRouter,
  teamPipelines: teamPipelinesRouter,
  teams: teamsRouter,
  teamMembers: teamMembersRouter,
  accessToken: accessTokenRouter,
  user: userRouter,
  organizations: organizationsRouter,
  jobs: jobsRouter,
  annotations: annotationsRouter,
  agents: agentsRouter,
  artifacts: artifactsRouter,
  notificationServices: notificationServicesRouter,
});

export type AppRouter = typeof appRouter;
