import { z } from 'zod';

/**
 * An output schema that documents a response without re-validating it at run time. The presenters are
 * typed from the same zod schemas and the integration tests check real responses against them, so
 * parsing every page again on the way out would only cost time. The OpenAPI document refers to the
 * component the schema registers (its `id`).
 */
export function documented<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>, z.input<T>> {
  const ref = { $ref: `#/components/schemas/${componentId(schema)}` };
  return z.any().meta(documentedAs(ref)) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/** The same for a JSON array of the schema's objects. */
export function documentedList<T extends z.ZodType>(
  schema: T,
): z.ZodType<Array<z.output<T>>, Array<z.input<T>>> {
  const list = { type: 'array', items: { $ref: `#/components/schemas/${componentId(schema)}` } };
  return z.any().meta(documentedAs(list)) as unknown as z.ZodType<Array<z.output<T>>, Array<z.input<T>>>;
}

function componentId(schema: z.ZodType): string {
  const id = schema.meta()?.id;
  if (typeof id !== 'string') throw new Error('A documented schema needs a component id (.meta({ id }))');
  return id;
}

/**
 * Metadata that makes the OpenAPI document show `jsonSchema` for a schema, in place of what the
 * generator would derive (an `any`, or a parameter's union of its REST text and its tRPC type).
 */
export function documentedAs(jsonSchema: Record<string, unknown>) {
  return {
    override: ({ jsonSchema: generated }: { jsonSchema: Record<string, unknown> }) => {
      for (const key of Object.keys(generated)) delete generated[key];
      Object.assign(generated, structuredClone(jsonSchema));
    },
  };
}
