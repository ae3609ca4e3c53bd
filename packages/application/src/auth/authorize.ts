import {
  allows,
  forbidden,
  hasScope,
  isStorableText,
  missingScope,
  type NotFoundResource,
  notFound,
  type Operation,
  type PipelineAccess,
  type PipelineAction,
  pipelineAccess,
  scopeFor,
} from '@ci/domain';
import type {
  AccessRepository,
  Deps,
  OrganizationAccess,
  PipelineAccessFacts,
  PipelineRevisionFacts,
} from '../ports';
import { type Actor, mayUseOrganization, requireReachable } from './actor';

/**
 * The one place that decides 403 and 404: scope first, then organization, then role or team access.
 * An organization the token may not use and a pipeline the user cannot see answer the same 404 as
 * one that does not exist.
 */
export function requireScope(actor: Actor, operation: Operation): void {
  const scope = scopeFor(operation);
  if (scope && !hasScope(actor.scopes, scope)) throw missingScope(scope);
}

/** Whether the token's scopes allow the operation, for what is shown only to those it allows. */
export function allowsOperation(actor: Actor, operation: Operation): boolean {
  const scope = scopeFor(operation);
  return scope === null || hasScope(actor.scopes, scope);
}

/**
 * A slug the database could not even compare (a NUL character, an unpaired surrogate: no slug has
 * them) names nothing: the same 404 as a slug that names nothing.
 */
export function requireComparable(slug: string, resource: NotFoundResource): void {
  if (!isStorableText(slug)) throw notFound(resource);
}

/**
 * The parts of a slug key (`<organization>/<pipeline>`, `<organization>/<pipeline>/<number>`): `count`
 * parts, none empty; null for a slug of another shape, which names nothing.
 */
export function slugParts(slug: string, count: number): string[] | null {
  const parts = slug.split('/');
  return parts.length === count && parts.every((part) => part !== '') ? parts : null;
}

/** {@link slugParts}, a slug of another shape refused: after the scope, the same 404 as one that names nothing. */
export function requireSlugParts(
  actor: Actor,
  operation: Operation,
  slug: string,
  { count, resource }: { count: number; resource: NotFoundResource },
): string[] {
  const parts = slugParts(slug, count);
  if (!parts) {
    requireScope(actor, operation);
    throw notFound(resource);
  }
  return parts;
}

export const requireOrganization =
  (deps: Deps) =>
  async (actor: Actor, operation: Operation, organizationSlug: string): Promise<OrganizationAccess> => {
    requireScope(actor, operation);
    requireComparable(organizationSlug, 'organization');
    const access = await deps.repos.access.organization({ userId: actor.user.id, organizationSlug });
    if (!access || !mayUseOrganization(actor, access.organization.id)) throw notFound('organization');
    requireReachable(actor, access.organization);
    return access;
  };

export interface AuthorizedPipeline extends PipelineAccessFacts {
  pipeline: NonNullable<PipelineAccessFacts['pipeline']>;
  access: PipelineAccess;
}

/** {@link PipelineRevisionFacts} authorized: what an answer given by its revision alone needs (ADR 0016). */
export type AuthorizedRevision = PipelineRevisionFacts & {
  pipeline: NonNullable<PipelineRevisionFacts['pipeline']>;
  access: PipelineAccess;
};

type PipelineRef = { organization: string; pipeline: string };

export const requirePipeline =
  (deps: Deps) =>
  (
    actor: Actor,
    operation: Operation,
    ref: PipelineRef,
    action: PipelineAction,
    /** reads the facts, and what the use case reads beside them in the same statement */
    read: AccessRepository['pipeline'] = deps.repos.access.pipeline,
  ): Promise<AuthorizedPipeline> =>
    authorizePipeline(deps, actor, operation, ref, action, read);

/**
 * {@link requirePipeline} deciding from the narrow facts alone (`AccessRepository.pipelineRevision`), the
 * same refusals in the same order: for an answer its revision may give without reading the pipeline.
 */
export const requirePipelineRevision =
  (deps: Deps) =>
  (
    actor: Actor,
    operation: Operation,
    ref: PipelineRef,
    action: PipelineAction,
  ): Promise<AuthorizedRevision> =>
    authorizePipeline(deps, actor, operation, ref, action, deps.repos.access.pipelineRevision);

async function authorizePipeline<Facts extends PipelineRevisionFacts>(
  deps: Deps,
  actor: Actor,
  operation: Operation,
  ref: PipelineRef,
  action: PipelineAction,
  read: (input: { userId: string; organizationSlug: string; pipelineSlug: string }) => Promise<Facts | null>,
): Promise<Facts & { pipeline: NonNullable<Facts['pipeline']>; access: PipelineAccess }> {
  requireScope(actor, operation);
  if (!isStorableText(ref.pipeline)) {
    await requireOrganization(deps)(actor, operation, ref.organization);
    throw notFound('pipeline');
  }
  requireComparable(ref.organization, 'organization');
  const facts = await read({
    userId: actor.user.id,
    organizationSlug: ref.organization,
    pipelineSlug: ref.pipeline,
  });
  if (!facts || !mayUseOrganization(actor, facts.organization.id)) throw notFound('organization');
  requireReachable(actor, facts.organization);
  const pipeline = facts.pipeline as NonNullable<Facts['pipeline']> | null;
  const access = pipelineAccess(facts);
  if (!pipeline || access === 'none') throw notFound('pipeline');
  if (!allows(access, action)) throw forbidden();
  return { ...facts, pipeline, access };
}
