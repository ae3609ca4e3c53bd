import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  type Source,
  type VariableDefinitionNode,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/**
 * Queries run as JavaScript compiled for their operation (graphql-jit, ADR 0008) instead of walking the
 * operation field by field: the same resolvers, several times less executor work per field.
 *
 * Only where the answer is graphql-js's to the byte; everything else runs on yoga's executor as before:
 * mutations (few, and one field each), operations that use directives (graphql-jit's @skip/@include in
 * fragments differ), variables that do not coerce (graphql-js words those errors), and anything
 * graphql-jit cannot compile. Its field errors are turned back into graphql-js errors (they know their
 * place only as line and column, and a null in a non-null field has no cause), listed before `data` as
 * graphql-js does.
 */
export function useCompiledQueries(): Plugin {
  /** Per document and operation name: the compiled query, or null when it runs on yoga's executor. */
  const compiled = new WeakMap<DocumentNode, Map<string, Compiled | null>>();

  const compiledFor = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null) => {
    let byName = compiled.get(document);
    if (!byName) {
      byName = new Map();
      compiled.set(document, byName);
    }
    const key = operationName ?? '';
    let query = byName.get(key);
    if (query === undefined) {
      query = compile(schema, document, operationName);
      byName.set(key, query);
    }
    return query;
  };

  return {
    onExecute({ args, setExecuteFn }) {
      const found = compiledFor(args.schema, args.document, args.operationName ?? null);
      if (!found) return;
      const { query, variableDefinitions } = found;
      if (
        variableDefinitions.length &&
        'errors' in getVariableValues(args.schema, variableDefinitions, args.variableValues ?? {})
      ) {
        return;
      }
      const source = args.document.loc?.source;
      setExecuteFn(async () =>
        asGraphqlJs(await query.query(args.rootValue, args.contextValue, args.variableValues), source),
      );
    },
  };
}

/** A compiled query, and the variables its operation declares (checked as graphql-js would first). */
interface Compiled {
  query: CompiledQuery;
  variableDefinitions: readonly VariableDefinitionNode[];
}

function compile(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
): Compiled | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query' || usesDirectives(document)) return null;
  const query = compileQuery(schema, document, operationName ?? undefined);
  return isCompiledQuery(query) ? { query, variableDefinitions: operation.variableDefinitions ?? [] } : null;
}

function usesDirectives(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE]: () => {
      found = true;
    },
  });
  return found;
}

/** graphql-jit's result as graphql-js words it: errors first, each with its place in the source. */
function asGraphqlJs(result: ExecutionResult, source: Source | undefined): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => located(error, source));
  const { errors: _theirs, ...rest } = result;
  return { errors, ...rest };
}

/**
 * graphql-js raises a null in a non-null field as a plain `Error` located by the executor, so it is
 * masked and logged as unexpected (a resolver broke its type); graphql-jit raises it without a cause.
 */
const NULL_IN_NON_NULL_FIELD = /^Cannot return null for non-nullable field /;

function located(error: GraphQLError, source: Source | undefined): GraphQLError {
  if (error.nodes !== undefined || !error.locations?.length || !source) return error;
  return new GraphQLError(error.message, {
    source,
    positions: error.locations.map((location) => positionOf(source, location)),
    path: error.path,
    originalError:
      error.originalError ??
      (NULL_IN_NON_NULL_FIELD.test(error.message) ? new Error(error.message) : undefined),
    extensions: error.extensions,
  });
}

/** The offset in `source` of a line and column (1-based), inverse of graphql-js's getLocation. */
function positionOf(source: Source, location: { line: number; column: number }): number {
  const lineBreak = /\r\n|[\n\r]/g;
  let lineStart = 0;
  for (let line = 1; line < location.line; line++) {
    const found = lineBreak.exec(source.body);
    if (!found) break;
    lineStart = found.index + found[0].length;
  }
  return lineStart + location.column - 1;
}
