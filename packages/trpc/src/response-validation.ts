import { type AnyRouter, TRPCError } from '@trpc/server';
import { z } from 'zod';
import { responseSchemaOf } from './documented';

/** Throws when `data`, the result of the procedure at `path`, does not match its response schema. */
export type ResponseCheck = (path: string, data: unknown) => void;

/**
 * Response validation (VALIDATE_RESPONSES): each procedure's result parsed by its response schema, the
 * wire schema its output documents (strict objects: a key the schema does not know is a mismatch too).
 * A mismatch throws an internal error naming the procedure and every issue: the client gets a 500, the
 * log the issues. Off in production: it parses every page again.
 */
export function responseValidator(router: AnyRouter): ResponseCheck {
  const schemas = new Map<string, z.ZodType>();
  const procedures = router._def.procedures as Record<string, { _def: { output?: unknown } }>;
  for (const [path, procedure] of Object.entries(procedures)) {
    const schema = responseSchemaOf(procedure._def.output);
    if (schema) schemas.set(path, schema);
  }
  return (path, data) => {
    const result = schemas.get(path)?.safeParse(data);
    if (!result || result.success) return;
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: `The response of ${path} does not match its schema:\n${z.prettifyError(result.error)}`,
    });
  };
}
