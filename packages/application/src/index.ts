export * from './auth/access-token-secret';
export type { Actor } from './auth/actor';
export type { BuildResult } from './builds/build-result';
export type { JobResult } from './builds/builds-by-id';
export type { PipelineRef } from './builds/create-build';
export type { BuildRef } from './builds/get-build';
export type { BuildListTarget, BuildPage } from './builds/list-builds';
export type { Page, RowWindow } from './page';
export * from './ports';
export type { RegistryPage } from './registries/list-registries';
export type { RegistryRef, RegistryView } from './registries/registry-view';
export type { TeamPipelinePage } from './team-pipelines/list-team-pipelines';
export type {
  AuthorizedTeam,
  TeamPipelineRef,
  TeamPipelineResult,
  TeamRef,
} from './team-pipelines/team-access';
export { createUseCases, type UseCases } from './use-cases';
export { avatarUrl, gravatarUrl } from './users/avatar-url';
