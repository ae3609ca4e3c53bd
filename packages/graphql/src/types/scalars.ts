import { formatTimestamp, parseTimestamp } from '@ci/domain';
import { GraphQLError, Kind, valueFromASTUntyped } from 'graphql';
import { builder } from '../builder';

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' ? parseTimestamp(value) : null;
  if (!date) throw new GraphQLError('DateTime must be an ISO 8601 timestamp, e.g. 2026-11-21T10:04:05Z');
  return date;
}

/** Every timestamp as REST shows it: ISO 8601 UTC with milliseconds and `Z`. */
builder.scalarType('DateTime', {
  description: 'An ISO-8601 encoded UTC date string',
  serialize: (value) => formatTimestamp(value),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : null),
});

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new GraphQLError('JSON must be a string holding JSON, or a JSON value');
  }
}

/** The reference's JSON: a JSON text (a string) or a JSON value; shown as pretty-printed text. */
builder.scalarType('JSON', {
  description: 'A blob of JSON represented as a pretty formatted string',
  serialize: (value) => JSON.stringify(value, null, 2),
  parseValue: parseJson,
  parseLiteral: (ast, variables) => parseJson(valueFromASTUntyped(ast, variables)),
});

function parseYamlText(value: unknown): string {
  if (typeof value !== 'string') throw new GraphQLError('YAML must be a string');
  return value;
}

/** The reference's YAML: the text as written (a pipeline configuration). */
builder.scalarType('YAML', {
  description: 'A YAML document, as text',
  serialize: (value) => value,
  parseValue: parseYamlText,
  parseLiteral: (ast) => parseYamlText(ast.kind === Kind.STRING ? ast.value : null),
});

/** The interface every connection implements, as in the reference schema. */
export const ConnectionInterface = builder
  .interfaceRef<{ count: number | null; pageInfo: unknown }>('Connection')
  .implement({
    fields: (t) => ({
      count: t.int({
        nullable: false,
        // A batched connection counts its list only when `count` is selected (connection.ts selectsCount).
        resolve: ({ count }) => {
          if (count === null) throw new Error('a connection whose count is selected was counted');
          return count;
        },
      }),
      pageInfo: t.field({
        type: builder.pageInfoRef(),
        nullable: true,
        resolve: (connection) => connection.pageInfo as never,
      }),
    }),
  });
