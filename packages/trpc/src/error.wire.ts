import { z } from 'zod';

/** Every error body: `{message}`, and for a create-build validation failure, the field errors. */
export const ErrorWire = z
  .object({
    message: z.string(),
    errors: z
      .array(
        z.object({
          field: z.string(),
          code: z.string().meta({ description: 'missing, invalid, too_long or taken' }),
          message: z.string(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'Error' });

/** A 429: the public API's body, saying which limit was spent and when it resets. */
export const RateLimitErrorWire = z
  .object({
    message: z.string(),
    scope: z.enum(['rest', 'rest_user', 'failed_authentication']).meta({
      description:
        '`rest`: the limit of the organization, `rest_user`: the limit of the user, `failed_authentication`: the limit of refused tokens from one client address',
    }),
    limit: z.int().meta({ description: 'requests allowed per minute' }),
    current: z.int().meta({ description: 'requests counted in this minute, this one included' }),
    reset: z.int().meta({ description: 'seconds until the counts restart' }),
  })
  .meta({ id: 'RateLimitError' });
