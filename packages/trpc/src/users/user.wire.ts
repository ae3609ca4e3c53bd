import { z } from 'zod';

/**
 * The wire shape of a user (user-get.json), keys in the order of the public API's examples: what
 * `GET /user` answers, and how builds show their creator and agents theirs.
 */
export const UserWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `User---<id>`' }),
    name: z.string(),
    email: z.string(),
    avatar_url: z.string().meta({ description: "the user's picture, else their Gravatar address" }),
    created_at: z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' }),
  })
  .meta({ id: 'User' });
export type UserWire = z.infer<typeof UserWire>;
