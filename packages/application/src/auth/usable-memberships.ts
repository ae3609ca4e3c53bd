import {
  isUuid,
  type NotFoundResource,
  notFound,
  type Organization,
  type Pipeline,
  type PipelineAccess,
} from '@ci/domain';
import type { Deps, OrganizationAccess } from '../ports';
import { type Actor, mayUseOrganization, reachesOrganization } from './actor';
import { memberPipelineAccess } from './member-pipeline-access';

/**
 * The organizations the actor may act in, by id: the user's memberships narrowed to the token's
 * allow-list and to those whose API IP allowlist admits the request. An object of any other
 * organization answers as one that does not exist.
 */
export async function usableMemberships(deps: Deps, actor: Actor): Promise<Map<string, OrganizationAccess>> {
  const memberships = await deps.repos.access.memberships(actor.user.id);
  return new Map(
    memberships
      .filter(
        (membership) =>
          mayUseOrganization(actor, membership.organization.id) &&
          reachesOrganization(actor, membership.organization),
      )
      .map((membership) => [membership.organization.id, membership]),
  );
}

/**
 * One object by its UUID (null, or anything but a UUID, names none) in an organization the actor may
 * use, with the actor's membership there: what a change addressed by id needs to call its REST use
 * case. Any other answers `notFound(resource)`, like an object that does not exist.
 */
export async function usableById<T>(
  deps: Deps,
  actor: Actor,
  input: {
    id: string | null;
    read: (id: string) => Promise<readonly T[]>;
    organizationOf: (found: T) => string;
    resource: NotFoundResource;
  },
): Promise<{ found: T; membership: OrganizationAccess }> {
  const [[found], memberships] = await Promise.all([
    input.id && isUuid(input.id) ? input.read(input.id.toLowerCase()) : Promise.resolve([]),
    usableMemberships(deps, actor),
  ]);
  const membership = found === undefined ? undefined : memberships.get(input.organizationOf(found));
  if (found === undefined || !membership) throw notFound(input.resource);
  return { found, membership };
}

/** The organizations among these where the actor is an admin: every pipeline and team of theirs is seen. */
export function adminOrganizationIds(memberships: Iterable<OrganizationAccess>): string[] {
  return [...memberships].filter((m) => m.role === 'admin').map((m) => m.organization.id);
}

/**
 * What the actor may do on each of these pipelines that it may see (the domain's access rule), by
 * pipeline id; pipelines it may not see are left out. Admins everything, members what their teams
 * give. Reads the memberships (unless given) and, when the actor is a member somewhere, what the
 * user's teams give there: two statements at most.
 */
export async function visiblePipelineAccess(
  deps: Deps,
  actor: Actor,
  pipelines: readonly Pick<Pipeline, 'id' | 'organizationId'>[],
  memberships?: Map<string, OrganizationAccess>,
): Promise<Map<string, PipelineAccess>> {
  const usable = memberships ?? (await usableMemberships(deps, actor));
  const involved = [...new Set(pipelines.map((pipeline) => pipeline.organizationId))]
    .map((id) => usable.get(id))
    .filter((membership): membership is OrganizationAccess => membership !== undefined);
  const memberAccess = await memberPipelineAccess(deps, actor.user.id, involved);
  const visible = new Map<string, PipelineAccess>();
  for (const pipeline of pipelines) {
    const access = accessAsMember({
      membership: usable.get(pipeline.organizationId),
      memberAccess,
      pipeline,
    });
    if (access) visible.set(pipeline.id, access);
  }
  return visible;
}

/**
 * What `read` finds that the actor may see, each thing of one pipeline (`pipelineOf`), with the access
 * and the membership that decided it: `read` beside the memberships, then what the user's teams give
 * ({@link visiblePipelineAccess}).
 */
export async function readVisible<T>(
  deps: Deps,
  actor: Actor,
  read: Promise<readonly T[]>,
  pipelineOf: (item: T) => Pick<Pipeline, 'id' | 'organizationId'>,
): Promise<Array<{ item: T; access: PipelineAccess; membership: OrganizationAccess }>> {
  const [items, memberships] = await Promise.all([read, usableMemberships(deps, actor)]);
  const levels = await visiblePipelineAccess(deps, actor, items.map(pipelineOf), memberships);
  return items.flatMap((item) => {
    const pipeline = pipelineOf(item);
    const access = levels.get(pipeline.id);
    const membership = memberships.get(pipeline.organizationId);
    return access && membership ? [{ item, access, membership }] : [];
  });
}

/**
 * The access a membership gives to a pipeline of its organization: everything to an admin, otherwise
 * what the member's teams give (`memberAccess`, from {@link memberPipelineAccess}); none without one.
 */
export function accessAsMember(input: {
  membership: OrganizationAccess | undefined;
  memberAccess: ReadonlyMap<string, PipelineAccess>;
  pipeline: Pick<Pipeline, 'id'>;
}): PipelineAccess | undefined {
  const { membership, memberAccess, pipeline } = input;
  if (!membership) return undefined;
  return membership.role === 'admin' ? 'admin' : memberAccess.get(pipeline.id);
}

/**
 * The actor's organizations among these ids, null for the others, in the order given: what an object
 * the actor may see shows of its organization (id, name, slug). Like the pipeline a REST build embeds,
 * it needs no scope of its own.
 */
export const organizationsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<Organization | null>> => {
    const usable = await usableMemberships(deps, actor);
    return ids.map((id) => usable.get(id.toLowerCase())?.organization ?? null);
  };

/** What the actor may do on each of these pipelines, for what depends on it (rule B2's webhook URL). */
export const pipelineAccessFor =
  (deps: Deps) =>
  (actor: Actor, pipelines: readonly Pick<Pipeline, 'id' | 'organizationId'>[]): Promise<PipelineAccess[]> =>
    visiblePipelineAccess(deps, actor, pipelines).then((visible) =>
      pipelines.map((pipeline) => visible.get(pipeline.id) ?? 'none'),
    );
