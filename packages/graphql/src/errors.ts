import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS, STORE_UNAVAILABLE_MESSAGE } from '@ci/application';
import { type DomainError, type ErrorKind, isDomainError } from '@ci/domain';
import { GraphQLError, type GraphQLErrorOptions } from 'graphql';

/** The message every unexpected failure shows, as over REST. */
export const INTERNAL_MESSAGE = 'Internal Server Error';

function domainCause(error: unknown): DomainError | null {
  const cause = error instanceof GraphQLError ? error.originalError : error;
  return isDomainError(cause) ? cause : null;
}

/**
 * The one translation from failures to GraphQL errors: a domain error keeps its REST message (with its
 * stable code, and the field errors of a 422 `Validation Failed`, as extensions); GraphQL's own errors
 * (syntax, validation, variables) stay as they are; the database out of reach is a 503; anything else is
 * masked.
 */
export function maskError(error: unknown): Error {
  const located = error instanceof GraphQLError ? error : null;
  const domain = domainCause(error);
  if (domain && domain.kind !== 'internal') {
    return at(located, domain.message, {
      code: domain.code,
      ...(domain.details ? { errors: domain.details.errors } : {}),
    });
  }
  if (isStoreUnavailable(error)) {
    // Yoga answers the status and headers of `extensions.http` (and leaves them out of the body).
    return at(located, STORE_UNAVAILABLE_MESSAGE, {
      code: 'unavailable',
      http: { status: 503, headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) } },
    });
  }
  if (located && (!located.originalError || located.originalError instanceof GraphQLError)) {
    return withoutCause(located.originalError instanceof GraphQLError ? located.originalError : located);
  }
  return at(located, INTERNAL_MESSAGE, { code: 'internal' });
}

/** A new error at the place of `located` (its nodes, or its source positions when it has no nodes). */
function at(
  located: GraphQLError | null,
  message: string,
  extensions: GraphQLErrorOptions['extensions'],
): GraphQLError {
  return new GraphQLError(message, {
    ...(located
      ? { nodes: located.nodes, source: located.source, positions: located.positions, path: located.path }
      : {}),
    extensions,
  });
}

/** GraphQL's own error without the `originalError` extension that would show what a parser said. */
function withoutCause(error: GraphQLError): GraphQLError {
  if (!error.extensions || !('originalError' in error.extensions)) return error;
  const { originalError: _hidden, ...extensions } = error.extensions;
  return at(error, error.message, extensions);
}

/** Whether a failure is unexpected: one to log with the request id. */
export function isUnexpected(error: unknown): boolean {
  const cause = error instanceof GraphQLError ? error.originalError : error;
  if (cause === undefined || cause === null) return false;
  if (isDomainError(cause)) return cause.kind === 'internal';
  return !(cause instanceof GraphQLError);
}

/**
 * The HTTP status of each refusal GraphQL answers before running anything: its one translation of domain
 * errors into statuses (STYLE.md: one place per transport; REST's is trpc's http-errors.ts).
 */
const REFUSAL_STATUS: Partial<Record<ErrorKind, number>> = {
  unauthenticated: 401,
  forbidden: 403,
  rate_limited: 429,
};

/**
 * A refusal before any GraphQL runs (no valid token, the rate limit, no `graphql` scope): its domain
 * error as a GraphQL-shaped JSON body with the HTTP status of its kind; `extensions` carry what REST puts
 * beside the message (the 429's scope, limit, current, reset).
 */
export function refusal(error: DomainError, headers: Record<string, string> = {}): Response {
  const { message, fields } = error;
  const body = fields ? { message, extensions: fields } : { message };
  return new Response(JSON.stringify({ errors: [body] }), {
    status: REFUSAL_STATUS[error.kind] ?? 500,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The database out of reach before any GraphQL ran (reading the token): a 503 asking to retry. */
export function storeUnavailable(): Response {
  const body = { errors: [{ message: STORE_UNAVAILABLE_MESSAGE, extensions: { code: 'unavailable' } }] };
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Retry-After': String(STORE_RETRY_AFTER_SECONDS),
    },
  });
}
