import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, router } from '../trpc';
import {
  presentOrganization,
  presentOrganizationMember,
  presentOrganizations,
} from './organization.presenter';
import { OrganizationMemberWire, OrganizationWire } from './organization.wire';

const ORGANIZATIONS = '/organizations';
const ORGANIZATION = `${ORGANIZATIONS}/{organization}`;
const TAGS = ['Organizations'];

const organization = organizationSlug;

const ListOrganizationsInput = z.object({ ...pageParameters });
const OrganizationKey = z.object({ organization });
const ListMembersInput = z.object({ organization, ...pageParameters });

export const organizationsRouter = router({
  list: authed
    .meta({
      openapi: {
        method: 'GET',
        path: ORGANIZATIONS,
        tags: TAGS,
        summary: 'List organizations',
        description:
          "The user's organizations that the token may use (all of them, or those the token is limited to), by slug.",
      },
      operation: 'listOrganizations',
    })
    .input(ListOrganizationsInput)
    .output(documentedList(OrganizationWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) => ctx.useCases.listOrganizations(ctx.actor, page));
      return presentOrganizations(items, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: ORGANIZATION, tags: TAGS, summary: 'Get an organization' },
      operation: 'getOrganization',
    })
    .input(OrganizationKey)
    .output(documented(OrganizationWire))
    .query(async ({ ctx, input }) =>
      presentOrganization(await ctx.useCases.getOrganization(ctx.actor, input.organization), ctx.urls),
    ),

  listMembers: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${ORGANIZATION}/members`,
        tags: TAGS,
        summary: 'List organization members',
        description: 'Every member of the organization, longest-standing first; any member may list them.',
      },
      operation: 'listOrganizationMembers',
    })
    .input(ListMembersInput)
    .output(documentedList(OrganizationMemberWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.listOrganizationMembers(ctx.actor, input.organization, page),
      );
      return items.map(presentOrganizationMember);
    }),
});
