import {
  distinctUuids,
  forbidden,
  isUuid,
  notFound,
  type Operation,
  type Organization,
  type Pipeline,
  parseRuleDescription,
  parseRuleType,
  parseRuleValue,
  type Rule,
  type RuleType,
  type RuleValueInput,
  unprocessable,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization, requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, OrganizationAccess } from '../ports';

/**
 * Organization rules (`pipeline.trigger_build.pipeline`, `pipeline.artifacts_read.pipeline`) for the
 * organization's admins: read with `read_rules`, changed with `write_rules`. Both pipelines must be the
 * organization's. Trigger steps read the trigger_build rules (trigger-jobs.ts), the agent's artifact
 * search the artifacts_read ones (docs/compatibility.md).
 */

export interface RuleView {
  rule: Rule;
  organization: Organization;
}

/** The actor's admin membership of the organization with this UUID, for a change. */
async function adminOf(deps: Deps, actor: Actor, operation: Operation, organizationId: string | null) {
  requireScope(actor, operation);
  const memberships = await usableMemberships(deps, actor);
  const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
  if (!membership) throw notFound('organization');
  if (membership.role !== 'admin') throw forbidden();
  return membership;
}

/** A rule value's pipeline, by UUID or slug (`pipeline` or `organization/pipeline`), in the organization. */
async function pipelineNamed(
  deps: Deps,
  organization: Organization,
  key: 'source_pipeline' | 'target_pipeline',
  name: string,
): Promise<Pipeline> {
  const parts = name.split('/');
  const slug = parts.length === 2 && parts[0] === organization.slug ? (parts[1] as string) : name;
  const pipeline = isUuid(name)
    ? await deps.repos.pipelines.findById(organization.id, name.toLowerCase())
    : await deps.repos.pipelines.findBySlug(organization.id, slug);
  if (!pipeline) {
    throw unprocessable(
      'invalid_rule',
      `Value ${key} names no pipeline of this organization: ${name.slice(0, 100)}`,
    );
  }
  return pipeline;
}

async function ruleValue(deps: Deps, organization: Organization, value: unknown) {
  const parsed = parseRuleValue(value);
  if (!parsed.ok) throw parsed.error;
  const input: RuleValueInput = parsed.value;
  const [source, target] = await Promise.all([
    pipelineNamed(deps, organization, 'source_pipeline', input.sourcePipeline),
    pipelineNamed(deps, organization, 'target_pipeline', input.targetPipeline),
  ]);
  return {
    sourcePipelineId: source.id,
    targetPipelineId: target.id,
    value: {
      source_pipeline: source.id,
      target_pipeline: target.id,
      ...(input.conditions ? { conditions: input.conditions } : {}),
    },
  };
}

function description(text: string | null | undefined) {
  const parsed = parseRuleDescription(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** A rule of an organization the actor administers, by UUID: a member who is not an admin is refused. */
async function administeredRule(
  deps: Deps,
  actor: Actor,
  operation: Operation,
  ruleId: string | null,
): Promise<{ rule: Rule; membership: OrganizationAccess }> {
  requireScope(actor, operation);
  const [[rule], memberships] = await Promise.all([
    ruleId && isUuid(ruleId) ? deps.repos.rules.byIds([ruleId.toLowerCase()]) : Promise.resolve([]),
    usableMemberships(deps, actor),
  ]);
  const membership = rule ? memberships.get(rule.organizationId) : undefined;
  if (!rule || !membership) throw notFound('rule');
  if (membership.role !== 'admin') throw forbidden();
  return { rule, membership };
}

export const createRule =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationId: string | null,
    input: { type: string; value: unknown; description?: string | null },
  ): Promise<RuleView> => {
    const { organization } = await adminOf(deps, actor, 'createRule', organizationId);
    const type = parseRuleType(input.type);
    if (!type.ok) throw type.error;
    const rule: Rule = {
      id: deps.newId(),
      organizationId: organization.id,
      type: type.value,
      ...(await ruleValue(deps, organization, input.value)),
      description: description(input.description),
      creatorId: actor.user.id,
      createdAt: deps.clock.now(),
    };
    await deps.repos.rules.insert(rule);
    return { rule, organization };
  };

/** Changes a rule's value (its pipelines and conditions) and, when given, its description; its type stays. */
export const updateRule =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; id: string | null; value: unknown; description?: string | null },
  ): Promise<RuleView> => {
    const { rule, membership } = await administeredRule(deps, actor, 'updateRule', input.id);
    if (input.organizationId?.toLowerCase() !== rule.organizationId) throw notFound('rule');
    const changes = {
      ...(await ruleValue(deps, membership.organization, input.value)),
      ...(input.description === undefined ? {} : { description: description(input.description) }),
    };
    const updated = await deps.repos.rules.update(rule.id, changes);
    if (!updated) throw notFound('rule');
    return { rule: updated, organization: membership.organization };
  };

export const deleteRule =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; id: string | null },
  ): Promise<{ id: string }> => {
    const { rule } = await administeredRule(deps, actor, 'deleteRule', input.id);
    if (input.organizationId?.toLowerCase() !== rule.organizationId) throw notFound('rule');
    if (!(await deps.repos.rules.delete(rule.id))) throw notFound('rule');
    return { id: rule.id };
  };

/** A rule by its UUID (`rule(uuid:)`): refused to members who are not admins. */
export const findRule =
  (deps: Deps) =>
  async (actor: Actor, uuid: string): Promise<RuleView> => {
    const { rule, membership } = await administeredRule(deps, actor, 'getRule', uuid);
    return { rule, organization: membership.organization };
  };

/** These rules in the order given; null for the unknown and those of organizations the actor does not administer. */
export const getRulesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<RuleView | null>> => {
    requireScope(actor, 'getRule');
    const [rules, memberships] = await Promise.all([
      deps.repos.rules.byIds(distinctUuids(ids)),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map<string, RuleView>();
    for (const rule of rules) {
      const membership = memberships.get(rule.organizationId);
      if (membership?.role === 'admin') visible.set(rule.id, { rule, organization: membership.organization });
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/** An organization's rules, newest first, by action and source or target pipeline (UUIDs). */
export const listRules =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    query: {
      types: readonly RuleType[] | null;
      sourcePipelineId: string | null;
      targetPipelineId: string | null;
    },
    page: Page | RowWindow,
  ): Promise<{ items: RuleView[]; totalCount: number }> => {
    const membership = await requireOrganization(deps)(actor, 'getRule', organizationSlug);
    if (membership.role !== 'admin') throw forbidden();
    const pipelineId = (id: string | null) =>
      id === null ? null : isUuid(id) ? id.toLowerCase() : undefined;
    const source = pipelineId(query.sourcePipelineId);
    const target = pipelineId(query.targetPipelineId);
    // A pipeline id that is no UUID names no pipeline: no rule has it.
    if (source === undefined || target === undefined) return { items: [], totalCount: 0 };
    const scope = {
      organizationId: membership.organization.id,
      types: query.types,
      sourcePipelineId: source,
      targetPipelineId: target,
    };
    const [rules, totalCount] = await Promise.all([
      deps.repos.rules.list({ ...scope, ...pageWindow(page) }),
      deps.repos.rules.count(scope),
    ]);
    return { items: rules.map((rule) => ({ rule, organization: membership.organization })), totalCount };
  };
