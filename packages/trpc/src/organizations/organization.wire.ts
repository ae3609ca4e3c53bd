import { z } from 'zod';

/** The wire shape of an organization (organizations-get.json), keys in the example's order. */
export const OrganizationWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `Organization---<id>`' }),
    url: z.string(),
    web_url: z.string(),
    name: z.string(),
    slug: z.string(),
    pipelines_url: z.string(),
    agents_url: z.string(),
    emojis_url: z.string(),
    created_at: z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' }),
  })
  .meta({ id: 'Organization' });
export type OrganizationWire = z.infer<typeof OrganizationWire>;

/** An organization member as the public API's members endpoint shows one: the user's id, name and email. */
export const OrganizationMemberWire = z
  .strictObject({
    id: z.uuid().meta({ description: "the user's UUID" }),
    name: z.string(),
    email: z.string(),
  })
  .meta({ id: 'OrganizationMember' });
export type OrganizationMemberWire = z.infer<typeof OrganizationMemberWire>;
