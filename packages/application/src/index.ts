export * from './auth/access-token-secret';
export type { Actor } from './auth/actor';
export type { BuildResult } from './builds/build-result';
export type { PipelineRef } from './builds/create-build';
export type { BuildRef } from './builds/get-build';
export type { BuildListTarget, BuildPage, Page } from './builds/list-builds';
export * from './ports';
export { createUseCases, type UseCases } from './use-cases';
