import { z } from 'zod';

/**
 * The response schemas behind `documented` outputs. tRPC parses every result with a procedure's output
 * parser, so the parser itself accepts anything (parsing every page again would cost the hot paths);
 * responses are parsed by the schema here only when they are validated (VALIDATE_RESPONSES,
 * response-validation.ts).
 */
const responseSchemas = new WeakMap<object, z.ZodType>();

/**
 * A procedure's output: the wire schema of its response, for the OpenAPI document (which refers to the
 * component the schema registers, its `id`) and for response validation; not parsed on the way out
 * otherwise.
 */
export function documented<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>, z.input<T>> {
  const ref = { $ref: `#/components/schemas/${componentId(schema)}` };
  return withResponseSchema<z.ZodType<z.output<T>, z.input<T>>>(z.any().meta(documentedAs(ref)), schema);
}

/** The same for a JSON array of the schema's objects. */
export function documentedList<T extends z.ZodType>(
  schema: T,
): z.ZodType<Array<z.output<T>>, Array<z.input<T>>> {
  const list = { type: 'array', items: { $ref: `#/components/schemas/${componentId(schema)}` } };
  return withResponseSchema<z.ZodType<Array<z.output<T>>, Array<z.input<T>>>>(
    z.any().meta(documentedAs(list)),
    z.array(schema),
  );
}

/**
 * The response schema of a procedure's output parser: the wire schema of a `documented` output, or the
 * parser itself when it is a zod schema (`z.void()`); undefined for anything else.
 */
export function responseSchemaOf(output: unknown): z.ZodType | undefined {
  if (!output || typeof output !== 'object') return undefined;
  return responseSchemas.get(output) ?? (output instanceof z.ZodType ? output : undefined);
}

function withResponseSchema<T>(parser: z.ZodType, schema: z.ZodType): T {
  responseSchemas.set(parser, schema);
  return parser as unknown as T;
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
