import type { RuleView } from '@ci/application';
import { decodeGraphqlId, isRuleType, type RuleType, ruleDocument } from '@ci/domain';
import { builder, type GraphqlContext } from '../builder';
import { OrganizationRef } from './organization';
import { PipelineNode } from './pipeline-node';
import { PipelineRef } from './refs';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const RuleRef = builder.objectRef<RuleView>('Rule');

/** The reference's action names, each the action of one rule type. */
const ACTIONS = {
  TRIGGER_BUILD: 'pipeline.trigger_build.pipeline',
  ARTIFACTS_READ: 'pipeline.artifacts_read.pipeline',
} as const satisfies Record<string, RuleType>;

const RuleAction = builder.enumType('RuleAction', {
  values: Object.fromEntries(Object.entries(ACTIONS).map(([name, type]) => [name, { value: type }])) as {
    [K in keyof typeof ACTIONS]: { value: (typeof ACTIONS)[K] };
  },
});
const RuleEffect = builder.enumType('RuleEffect', { values: ['ALLOW'] as const });
const RuleSourceType = builder.enumType('RuleSourceType', { values: ['PIPELINE'] as const });
const RuleTargetType = builder.enumType('RuleTargetType', { values: ['PIPELINE'] as const });
const RuleOrder = builder.enumType('RuleOrder', { values: ['RECENTLY_CREATED'] as const });

const RuleSource = builder.unionType('RuleSource', { types: [PipelineRef], resolveType: () => PipelineRef });
const RuleTarget = builder.unionType('RuleTarget', { types: [PipelineRef], resolveType: () => PipelineRef });

/** A rule's pipeline as the actor may see it (an admin sees every one of the organization's). */
async function pipeline(id: string, ctx: GraphqlContext) {
  return PipelineNode.of(await ctx.loaders.pipelines.load(id));
}

builder.node(RuleRef, {
  description: 'A rule: a source pipeline may trigger builds of, or read artifacts of, a target pipeline',
  id: { resolve: ({ rule }) => rule.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ rule }) => rule.id }),
    type: t.string({ nullable: false, resolve: ({ rule }) => rule.type }),
    action: t.field({ type: RuleAction, nullable: true, resolve: ({ rule }) => rule.type }),
    effect: t.field({ type: RuleEffect, nullable: true, resolve: () => 'ALLOW' as const }),
    description: t.string({ nullable: true, resolve: ({ rule }) => rule.description }),
    document: t.string({
      nullable: true,
      description: 'The rule as JSON: its type and value (the pipelines by UUID)',
      resolve: ({ rule }) => ruleDocument(rule),
    }),
    sourceType: t.field({ type: RuleSourceType, nullable: true, resolve: () => 'PIPELINE' as const }),
    targetType: t.field({ type: RuleTargetType, nullable: true, resolve: () => 'PIPELINE' as const }),
    source: t.field({
      type: RuleSource,
      nullable: true,
      resolve: ({ rule }, _args, ctx) => pipeline(rule.sourcePipelineId, ctx),
    }),
    target: t.field({
      type: RuleTarget,
      nullable: true,
      resolve: ({ rule }, _args, ctx) => pipeline(rule.targetPipelineId, ctx),
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: ({ rule }, _args, ctx) => (rule.creatorId ? ctx.loaders.people.load(rule.creatorId) : null),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: ({ organization }) => organization,
    }),
  }),
});

const RuleConnection = builder.connectionObject(
  { type: RuleRef, name: 'RuleConnection', interfaces: [ConnectionInterface] },
  { name: 'RuleEdge' },
);

/** A pipeline named by its GraphQL id or its UUID; anything else is kept, and names none. */
function pipelineUuid(id: string | null | undefined): string | null {
  if (id == null) return null;
  const decoded = decodeGraphqlId(id);
  return decoded?.type === 'Pipeline' ? decoded.id : id;
}

builder.objectField(OrganizationRef, 'rules', (t) =>
  t.connection(
    {
      type: RuleRef,
      nullable: true,
      description: "The organization's rules, newest first (admins only, with `read_rules`)",
      args: {
        action: t.arg({ type: [RuleAction], required: false }),
        order: t.arg({ type: RuleOrder, required: false, defaultValue: 'RECENTLY_CREATED' }),
        sourceId: t.arg.id({ required: false, description: 'The source pipeline (its id or UUID)' }),
        sourceType: t.arg({ type: [RuleSourceType], required: false }),
        targetId: t.arg.id({ required: false, description: 'The target pipeline (its id or UUID)' }),
        targetType: t.arg({ type: [RuleTargetType], required: false }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.rules',
          parentId: organization.id,
          args,
          read: (window) =>
            ctx.useCases.listRules(
              ctx.actor,
              organization.slug,
              {
                types: args.action ? args.action.filter(isRuleType) : null,
                sourcePipelineId: pipelineUuid(args.sourceId),
                targetPipelineId: pipelineUuid(args.targetId),
              },
              window,
            ),
        }),
    },
    RuleConnection,
  ),
);
