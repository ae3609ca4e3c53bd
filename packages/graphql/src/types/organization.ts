import type { Organization } from '@ci/domain';
import { builder, type GraphqlContext } from '../builder';

export const OrganizationRef = builder.objectRef<Organization>('Organization');

/** The organization of an object the actor sees: always one of the actor's. */
export async function organizationOf(organizationId: string, ctx: GraphqlContext): Promise<Organization> {
  const organization = await ctx.loaders.organizations.load(organizationId);
  if (!organization) throw new Error(`Organization ${organizationId} of a visible object is not the actor's`);
  return organization;
}

builder.node(OrganizationRef, {
  description: 'An organization',
  id: { resolve: (organization) => organization.id },
  fields: (t) => ({
    uuid: t.exposeString('id', { nullable: false, description: 'The public UUID for this organization' }),
    name: t.exposeString('name', { nullable: false }),
    slug: t.exposeString('slug', { nullable: false }),
  }),
});
