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
