export { AccessTokenWire } from './access-tokens/access-token.wire';
export { registerAgentApi } from './agents/agent-api';
export { BuildWire, CreateBuildRequest } from './builds/build.wire';
export { ErrorWire, RateLimitErrorWire } from './error.wire';
export { type HttpError, httpErrorFor, replyWithError } from './http-errors';
export { openApiDocument } from './openapi';
export { OrganizationMemberWire, OrganizationWire } from './organizations/organization.wire';
export {
  CreatePipelineRequest,
  PipelineWire,
  UpdatePipelineRequest,
} from './pipelines/pipeline.wire';
export {
  CreateRegistryRequest,
  RegistryWire,
  UpdateRegistryRequest,
} from './registries/registry.wire';
export { registerRestApi } from './rest-api';
export { type AppRouter, appRouter } from './router';
export {
  CreateTeamPipelineRequest,
  TeamPipelineWire,
  UpdateTeamPipelineRequest,
} from './team-pipelines/team-pipeline.wire';
export {
  CreateTeamMemberRequest,
  CreateTeamRequest,
  TeamMemberWire,
  TeamWire,
  UpdateTeamMemberRequest,
  UpdateTeamRequest,
} from './teams/team.wire';
export type { PublicUrls, TrpcContext } from './trpc';
export { registerTrpcApi } from './trpc-api';
export { UserWire } from './users/user.wire';
