import { type PipelineSlugs, pipelineSlugs, slugParts } from '@ci/application';
import { type DocumentNode, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { keepsAnswer } from './kept-answers';
import type { PostedParams } from './posted-params';

/**
 * The pipeline a GraphQL request names at its root, read with the token as REST reads the pipeline its
 * path names (ADR 0007, ADR 0011): the `slug` of a root `pipeline` field (`org/pipeline`), or of a root
 * `build` field (`org/pipeline/number`, the build too), the first of them in the operation that runs.
 * It is only a read-ahead: the field's resolver decides as before and uses what was read when the slugs
 * are the same (`requirePipeline`), so a wrong or missing guess costs a statement, never an answer.
 * With it, whether the operation's answer may be kept while the pipeline's revision holds
 * (`keepsAnswer`, ADR 0012).
 */
export function namedPipeline(
  params: PostedParams | undefined,
): { slugs: PipelineSlugs; keepsAnswer: boolean } | undefined {
  if (!params) return undefined;
  const { query, operationName, variables } = params;
  // A long text is not looked into: no read-ahead for it (a client's operations are short; yoga still
  // parses it, after the token, under its own limits).
  if (typeof query !== 'string' || query.length > LONGEST_QUERY_LOOKED_INTO) return undefined;
  const named = rootSlugOf(query, typeof operationName === 'string' ? operationName : null);
  if (!named) return undefined;
  const slug =
    'literal' in named
      ? named.literal
      : typeof variables === 'object' && variables !== null
        ? (variables as Record<string, unknown>)[named.variable]
        : undefined;
  const slugs = typeof slug === 'string' ? slugsOf(named.field, slug) : undefined;
  return slugs && { slugs, keepsAnswer: named.keepsAnswer };
}

/**
 * Where an operation's root names a pipeline: which field, and its `slug` as a literal or a variable; and
 * whether the operation's answer may be kept (`keepsAnswer`).
 */
type RootSlug = SlugArgument & { keepsAnswer: boolean };
type SlugArgument = { field: 'pipeline' | 'build' } & ({ literal: string } | { variable: string });

/** Per query text: each operation's root slug (by name; '' for an anonymous one), null where none. */
type QuerySlugs = Map<string, RootSlug | null> | null;

/** The longest query text looked into, in characters (the bench's list query has ~1,800). */
export const LONGEST_QUERY_LOOKED_INTO = 16 * 1024;

/** Queries used lately, least recently used first; a client sends the same few texts again and again. */
const seen = new Map<string, QuerySlugs>();
export const REMEMBERED_QUERIES = 256;

/** Whether this query text is among those remembered (for tests). */
export const isRemembered = (query: string): boolean => seen.has(query);

function rootSlugOf(query: string, operationName: string | null): RootSlug | null {
  let slugs = seen.get(query);
  if (slugs === undefined) {
    slugs = querySlugs(query);
    if (seen.size >= REMEMBERED_QUERIES) seen.delete(seen.keys().next().value as string);
  } else {
    // Used again: to the end of the line, the last to be forgotten.
    seen.delete(query);
  }
  seen.set(query, slugs);
  if (!slugs) return null;
  // Without a name, the operation runs only if it is the document's one operation.
  if (operationName === null) return slugs.size === 1 ? ([...slugs.values()][0] ?? null) : null;
  return slugs.get(operationName) ?? null;
}

function querySlugs(query: string): QuerySlugs {
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true, maxTokens: MOST_TOKENS });
  } catch {
    // Not a document (a syntax error, too many tokens, nesting deeper than the stack): no read-ahead;
    // yoga parses it after the token and answers it as it always has.
    return null;
  }
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  return new Map(
    operations.map((operation) => {
      const slug = operationSlug(operation);
      return [
        operation.name?.value ?? '',
        slug && { ...slug, keepsAnswer: keepsAnswer(document, operation) },
      ];
    }),
  );
}

/** A bound on the parse's work; a text that needs more is not looked into (the catch below is the guard). */
const MOST_TOKENS = 4_000;

function operationSlug(operation: OperationDefinitionNode): SlugArgument | null {
  if (operation.operation !== 'query') return null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = selection.name.value;
    if (field !== 'pipeline' && field !== 'build') continue;
    const slug = selection.arguments?.find((argument) => argument.name.value === 'slug')?.value;
    if (slug?.kind === Kind.STRING) return { field, literal: slug.value };
    if (slug?.kind === Kind.VARIABLE) return { field, variable: slug.name.value };
  }
  return null;
}

/** The slugs as the field's use case splits them (`slugParts`); none from a slug it refuses. */
function slugsOf(field: RootSlug['field'], slug: string): PipelineSlugs | undefined {
  const parts = slugParts(slug, field === 'pipeline' ? 2 : 3);
  if (!parts) return undefined;
  const [organization, pipeline, number] = parts as [string, string, string | undefined];
  return pipelineSlugs(organization, pipeline, number);
}
