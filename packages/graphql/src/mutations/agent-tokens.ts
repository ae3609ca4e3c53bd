import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { AgentTokenEdgeRef, AgentTokenRef } from '../types/agent-token';
import { OrganizationRef } from '../types/organization';
import { publicMutation } from './client-mutation-id';

/** Agent token create and revoke, for organization admins (`write_agents`). */

publicMutation('agentTokenCreate', {
  description: 'Create a new agent registration token: its secret is in this answer only (`tokenValue`).',
  inputFields: (t) => ({
    organizationID: t.id({ required: true }),
    description: t.string(),
    public: t.boolean({ defaultValue: false }),
  }),
  resolve: async (input, ctx) => ({
    created: await ctx.useCases.byId.createAgentToken(
      ctx.actor,
      uuidOf(input.organizationID, 'Organization'),
      {
        description: input.description,
        public: input.public,
      },
    ),
  }),
  payloadFields: (t) => ({
    tokenValue: t.string({ nullable: false, resolve: ({ created }) => created.secret }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: ({ created }) => created.organization,
    }),
    agentTokenEdge: t.field({
      type: AgentTokenEdgeRef,
      nullable: false,
      resolve: ({ created }) => ({ cursor: cursorFor(0), node: created }),
    }),
  }),
});

publicMutation('agentTokenRevoke', {
  description: 'Revoke an agent token: it registers no more agents (agents it registered keep working).',
  inputFields: (t) => ({
    id: t.id({ required: true }),
    reason: t.string({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    agentToken: await ctx.useCases.byId.revokeAgentToken(ctx.actor, uuidOf(input.id, 'AgentToken'), {
      reason: input.reason,
    }),
  }),
  payloadFields: (t) => ({
    agentToken: t.field({ type: AgentTokenRef, nullable: false, resolve: (payload) => payload.agentToken }),
  }),
});
