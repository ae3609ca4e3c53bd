import { encodeGraphqlId } from '@ci/domain';
import { uuidOf } from '../global-id';
import { RuleRef } from '../types/rule';
import { publicMutation } from './client-mutation-id';

/** Rule create, update and delete, for organization admins (`write_rules`); see rule.ts for which are enforced. */

publicMutation('ruleCreate', {
  description: 'Create a rule (enforced: trigger_build by trigger steps, artifacts_read by artifact reads).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    type: t.string({
      required: true,
      description: '`pipeline.trigger_build.pipeline` or `pipeline.artifacts_read.pipeline`',
    }),
    value: t.field({
      type: 'JSON',
      required: true,
      description:
        '`{"source_pipeline": <UUID or slug>, "target_pipeline": <UUID or slug>, "conditions": [...]}`',
    }),
    description: t.string(),
  }),
  resolve: async (input, ctx) => ({
    rule: await ctx.useCases.byId.createRule(ctx.actor, uuidOf(input.organizationId, 'Organization'), {
      type: input.type,
      value: input.value,
      description: input.description,
    }),
  }),
  payloadFields: (t) => ({ rule: t.expose('rule', { type: RuleRef, nullable: false }) }),
});

publicMutation('ruleUpdate', {
  description: "Change a rule's value and description (its type stays).",
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
    value: t.field({ type: 'JSON', required: true }),
    description: t.string({ description: 'A new description; null or blank clears it, absent keeps it' }),
  }),
  resolve: async (input, ctx) => ({
    rule: await ctx.useCases.byId.updateRule(ctx.actor, {
      organizationId: uuidOf(input.organizationId, 'Organization'),
      id: uuidOf(input.id, 'Rule'),
      value: input.value,
      ...(input.description === undefined ? {} : { description: input.description }),
    }),
  }),
  payloadFields: (t) => ({ rule: t.expose('rule', { type: RuleRef, nullable: false }) }),
});

publicMutation('ruleDelete', {
  description: 'Delete a rule.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const { id } = await ctx.useCases.byId.deleteRule(ctx.actor, {
      organizationId: uuidOf(input.organizationId, 'Organization'),
      id: uuidOf(input.id, 'Rule'),
    });
    return { deletedRuleId: encodeGraphqlId('Rule', id) };
  },
  payloadFields: (t) => ({ deletedRuleId: t.exposeID('deletedRuleId', { nullable: false }) }),
});
