export type { AccessTokenView } from './access-tokens/get-access-token';
export type * from './agents/agent-ports';
export type {
  AgentJobAction,
  AgentTimings,
  DispatchedJob,
  PingResult,
  RegisterRequest,
} from './agents/agent-protocol';
export { DEFAULT_AGENT_TIMINGS } from './agents/agent-protocol';
export * from './auth/access-token-secret';
export type { Actor } from './auth/actor';
export type { BuildResult } from './builds/build-result';
export type { PipelineRef } from './builds/create-build';
export type { BuildRef } from './builds/get-build';
export type { BuildListTarget, BuildPage } from './builds/list-builds';
export type { JobLog, JobRef, JobResult } from './jobs/job-actions';
export type { OrganizationMemberPage } from './organizations/list-organization-members';
export type { OrganizationPage } from './organizations/list-organizations';
export type { Page } from './page';
export type { PipelineListQuery, PipelinePage } from './pipelines/list-pipelines';
export type { PipelineResult } from './pipelines/pipeline-result';
export * from './ports';
export type { CountRequestInput } from './rate-limits/count-request';
export type { RegistryPage } from './registries/list-registries';
export type { RegistryRef, RegistryView } from './registries/registry-view';
export type { TeamPipelinePage } from './team-pipelines/list-team-pipelines';
export type { TeamPipelineRef, TeamPipelineResult, TeamRef } from './team-pipelines/team-access';
export type { TeamMemberPage } from './teams/list-team-members';
export type { TeamListFilter, TeamPage } from './teams/list-teams';
export type { TeamMemberRef } from './teams/team-access';
export { createUseCases, type UseCases } from './use-cases';
