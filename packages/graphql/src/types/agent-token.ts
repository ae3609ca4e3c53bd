import type { AgentTokenView } from '@ci/application';
import { builder } from '../builder';
import { OrganizationRef } from './organization';
import { ALLOWED, PermissionRef } from './permission';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

/** A token as the actor sees it; `secret` only in the answer of the mutation that created it. */
export type AgentTokenShape = AgentTokenView & { secret?: string };

export const AgentTokenRef = builder.objectRef<AgentTokenShape>('AgentToken');

const AgentTokenPermissions = builder.objectRef<AgentTokenShape>('AgentTokenPermissions').implement({
  description: 'The permissions the viewer has on an agent token',
  fields: (t) => ({
    agentTokenRevoke: t.field({
      type: PermissionRef,
      nullable: true,
      description: 'Whether the viewer can revoke this token (admins only see tokens: until it is revoked)',
      resolve: ({ token }) =>
        token.revokedAt
          ? {
              allowed: false,
              code: 'agent_token_revoked',
              message: 'This agent token has already been revoked',
            }
          : ALLOWED,
    }),
  }),
});

builder.node(AgentTokenRef, {
  description: 'A token used to register an agent with an organization (stored hashed)',
  id: { resolve: ({ token }) => token.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ token }) => token.id }),
    description: t.string({ nullable: true, resolve: ({ token }) => token.description }),
    public: t.boolean({
      nullable: false,
      description: 'Kept as given; it changes nothing here yet',
      resolve: ({ token }) => token.public,
    }),
    token: t.string({
      nullable: false,
      deprecationReason:
        'Hiding these after creation to improve security. Use the `token_value` field on AgentTokenCreate instead.',
      description:
        'The secret, only in the answer of `agentTokenCreate` (tokens are stored hashed); empty elsewhere',
      resolve: ({ secret }) => secret ?? '',
    }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ token }) => token.createdAt }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The admin who created it through the API; null for the operator’s CLI',
      resolve: ({ token }, _args, ctx) => (token.creatorId ? ctx.loaders.people.load(token.creatorId) : null),
    }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ token }) => token.revokedAt }),
    revokedBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: ({ token }, _args, ctx) =>
        token.revokedById ? ctx.loaders.people.load(token.revokedById) : null,
    }),
    revokedReason: t.string({ nullable: true, resolve: ({ token }) => token.revokedReason }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: ({ organization }) => organization,
    }),
    permissions: t.field({ type: AgentTokenPermissions, nullable: false, resolve: (shape) => shape }),
  }),
});

/** The edge type on its own: `agentTokenCreate` answers one. */
export const AgentTokenEdgeRef = builder.edgeObject({ type: AgentTokenRef, name: 'AgentTokenEdge' });

export const AgentTokenConnection = builder.connectionObject(
  { type: AgentTokenRef, name: 'AgentTokenConnection', interfaces: [ConnectionInterface] },
  AgentTokenEdgeRef,
);

builder.objectField(OrganizationRef, 'agentTokens', (t) =>
  t.field({
    type: AgentTokenConnection,
    nullable: true,
    description: 'The agent tokens of this organization, oldest first (admins only, with `read_agents`)',
    args: {
      first: t.arg.int({ required: false }),
      last: t.arg.int({ required: false }),
      revoked: t.arg.boolean({
        required: false,
        description: 'Only the revoked tokens (true) or only those not revoked (false)',
      }),
    },
    resolve: (organization, args, ctx) =>
      ctx.loaders.list({
        field: 'Organization.agentTokens',
        parentId: organization.id,
        args: { first: args.first, last: args.last },
        read: (window) =>
          ctx.useCases.listAgentTokens(ctx.actor, organization.slug, { revoked: args.revoked }, window),
      }) as never,
  }),
);
