export type { AccessTokenView } from './access-tokens/get-access-token';
export type { AgentRestQuery, AgentView } from './agents/agent-controls';
export type * from './agents/agent-ports';
export type {
  AgentJobAction,
  AgentTimings,
  DispatchedJob,
  PingResult,
  RegisterRequest,
} from './agents/agent-protocol';
export { DEFAULT_AGENT_TIMINGS, MAX_CHUNK_BYTES } from './agents/agent-protocol';
export type { AgentTokenView } from './agents/agent-tokens';
export type { AgentRef, AgentWork } from './agents/agents-by-id';
export type { PipelineUploadRequest, PipelineUploadResult } from './agents/job-pipeline-upload';
export type { AgentListQuery, AgentPage } from './agents/list-agents';
export type * from './annotations/annotation-ports';
export type { AnnotateRequest, AnnotationPage } from './annotations/annotations';
export type { ArtifactSearch, FoundArtifact } from './artifacts/agent-artifacts';
export * from './artifacts/artifact-ports';
export type { ArtifactList, ArtifactRef, ArtifactsFilter } from './artifacts/artifacts';
export * from './auth/access-token-secret';
export type { Actor } from './auth/actor';
export { slugParts } from './auth/authorize';
export type { EstablishedAccess } from './auth/established-access';
export { csrfTokenFor, type SignedIn } from './auth/web-sessions';
export type { BuildResult } from './builds/build-result';
export type { JobResult } from './builds/builds-by-id';
export type { PipelineRef } from './builds/create-build';
export type { BuildRef } from './builds/get-build';
export type { BuildListTarget, BuildPage } from './builds/list-builds';
export type {
  ClusterPage,
  ClusterQueueRef,
  ClusterQueueView,
  ClusterRef,
  ClusterTokenRef,
  ClusterTokenView,
  ClusterView,
} from './clusters/cluster-views';
export { newId } from './ids';
export type * from './inbound/inbound-ports';
export type { PipelineTriggerRef, PipelineTriggerView } from './inbound/pipeline-triggers';
export type { WebhookDelivery, WebhookOutcome } from './inbound/source-webhooks';
export type { JobInBuild, JobLog, JobLogPage, JobRef } from './jobs/job-actions';
export type { OrganizationJobQuery } from './jobs/list-organization-jobs';
export type { DeliveryPolicy, SendOutcome } from './notifications/notification-delivery';
export type { Notification, NotificationSubject } from './notifications/notification-fan-out';
export type * from './notifications/notification-ports';
export type {
  NotificationServiceInputWithPipeline,
  NotificationServiceView,
  PingSubject,
} from './notifications/notification-services';
export type { OrganizationMemberPage } from './organizations/list-organization-members';
export type { OrganizationPage } from './organizations/list-organizations';
export type { ListPart, Page, PartRequest, RowWindow } from './page';
export type * from './pipeline-schedules/pipeline-schedule-ports';
export type { PipelineScheduleRef, PipelineScheduleView } from './pipeline-schedules/pipeline-schedules';
export type * from './pipeline-templates/pipeline-template-ports';
export type { PipelineTemplateView } from './pipeline-templates/pipeline-templates';
export type { PipelineListQuery, PipelinePage } from './pipelines/list-pipelines';
export type { PipelineResult } from './pipelines/pipeline-result';
export { type PipelineSeen, seenFrom } from './pipelines/pipelines-by-id';
export * from './ports';
export type { CountRequestInput } from './rate-limits/count-request';
export type { AuthenticationRefusal } from './rate-limits/refuse-authentication';
export type { RegistryPage } from './registries/list-registries';
export type { RegistryRef, RegistryView } from './registries/registry-view';
export type * from './rules/rule-ports';
export type { RuleView } from './rules/rules';
export {
  isStoreUnavailable,
  type OutageLog,
  STORE_RETRY_AFTER_SECONDS,
  STORE_UNAVAILABLE_MESSAGE,
  StoreOutage,
  storeOutage,
} from './store-outage';
export type * from './suites/suite-ports';
export type { SuiteView, TeamSuiteView } from './suites/suites';
export type { TeamPipelinePage } from './team-pipelines/list-team-pipelines';
export type { TeamPipelineRef, TeamPipelineResult } from './team-pipelines/team-pipeline-access';
export type { TeamMemberPage } from './teams/list-team-members';
export type { TeamListFilter, TeamPage } from './teams/list-teams';
export type { AuthorizedTeam, TeamMemberRef, TeamRef } from './teams/team-access';
export type { TeamMemberResult } from './teams/teams-by-id';
export { createUseCases, type UseCases } from './use-cases';
export { avatarUrl, gravatarUrl } from './users/avatar-url';
