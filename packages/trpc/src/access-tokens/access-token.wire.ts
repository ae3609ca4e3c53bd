import { SCOPES } from '@ci/domain';
import { z } from 'zod';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });

/**
 * The wire shape of the token a request is made with (access-token.json), keys in the example's order;
 * timestamps in the form of every other timestamp here (decisions.md), not the example's.
 */
export const AccessTokenWire = z
  .strictObject({
    uuid: z.uuid(),
    scopes: z.array(z.enum(SCOPES)),
    description: z.string().nullable(),
    created_at: timestamp,
    expires_at: timestamp.nullable().meta({ description: 'null when the token never expires' }),
    user: z.strictObject({ email: z.string(), name: z.string() }).meta({ description: "the token's user" }),
  })
  .meta({ id: 'AccessToken' });
export type AccessTokenWire = z.infer<typeof AccessTokenWire>;
