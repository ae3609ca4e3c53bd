import type { User } from '@ci/domain';
import { builder } from '../builder';
import { resolveConnection } from '../connection';
import { OrganizationRef } from './organization';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

/** The session of the token's user. */
export interface ViewerShape {
  viewer: User;
}

export const ViewerRef = builder.objectRef<ViewerShape>('Viewer');

const OrganizationConnection = builder.connectionObject(
  { type: OrganizationRef, name: 'OrganizationConnection', interfaces: [ConnectionInterface] },
  { name: 'OrganizationEdge' },
);

builder.node(ViewerRef, {
  description: 'Represents the current user session',
  id: { resolve: ({ viewer }) => viewer.id },
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      nullable: true,
      description: 'The current user (`read_user`, as `GET /v2/user`)',
      resolve: (_viewer, _args, ctx) => ctx.useCases.getUser(ctx.actor),
    }),
    organizations: t.field({
      type: OrganizationConnection,
      nullable: true,
      description: "The user's organizations the token may use, by slug (as the REST list)",
      // As in the reference: the viewer's organizations take first/last only.
      args: { first: t.arg.int({ required: false }), last: t.arg.int({ required: false }) },
      resolve: (_viewer, args, ctx) =>
        resolveConnection(args, (window) => ctx.useCases.listOrganizations(ctx.actor, window)),
    }),
  }),
});
