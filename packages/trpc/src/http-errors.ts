import {
  isStoreUnavailable,
  STORE_RETRY_AFTER_SECONDS,
  STORE_UNAVAILABLE_MESSAGE,
  storeOutage,
} from '@ci/application';
import { badRequest, type DomainError, type ErrorKind, isDomainError, payloadTooLarge } from '@ci/domain';
import { type TRPC_ERROR_CODE_KEY, TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface HttpError {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const STATUS: Record<ErrorKind, number> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  bad_request: 400,
  unprocessable: 422,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
};

const TRPC_CODE: Record<ErrorKind, TRPC_ERROR_CODE_KEY> = {
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  bad_request: 'BAD_REQUEST',
  unprocessable: 'UNPROCESSABLE_CONTENT',
  conflict: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL_SERVER_ERROR',
};

/** The tRPC error code of a domain error kind: the same status over /trpc as over /v2. */
export function trpcCodeFor(kind: ErrorKind): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE[kind];
}

const INTERNAL: HttpError = { status: 500, body: { message: 'Internal Server Error' } };

/** The database out of reach: a 503 the client can act on, not a 500. */
const STORE_UNAVAILABLE: HttpError = {
  status: 503,
  body: { message: STORE_UNAVAILABLE_MESSAGE },
  headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
};

function fromDomain(error: DomainError): HttpError {
  if (error.kind === 'internal') return INTERNAL;
  const body: Record<string, unknown> = { message: error.message, ...error.fields };
  if (error.details) body.errors = error.details.errors;
  return { status: STATUS[error.kind], body };
}

/** Fastify's own refusals (body parsing, size) that reach us before any procedure runs. */
function fromFramework(error: { code?: string; statusCode?: number; message?: string }): HttpError | null {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, body: { message: 'Problems parsing JSON' } };
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fromDomain(payloadTooLarge());
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, body: { message: 'Unsupported Media Type: send JSON' } };
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { message: error.message ?? 'Bad Request' } };
  }
  return null;
}

interface InputIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
}

/**
 * The domain error of input a procedure's schema refused (a query parameter, a path segment, a tRPC
 * input), from its first issue: a check of ours (a `custom` issue, parameters.ts) says what is wrong in
 * words that name the parameter (`page must be a positive integer`); zod's own (a wrong type) are
 * prefixed with where they are.
 */
export function inputErrorFor(issues: readonly InputIssue[] | undefined): DomainError {
  const first = issues?.[0];
  if (!first) return badRequest('invalid_parameter', 'Bad Request');
  if (first.code === 'custom') return badRequest('invalid_parameter', first.message);
  return badRequest(
    'invalid_parameter',
    `Invalid ${first.path.map(String).join('.') || 'input'}: ${first.message}`,
  );
}

/**
 * The one translation from failures to HTTP: domain errors by kind, framework refusals by code, input the
 * schemas refused as 400 (`inputErrorFor`), the database out of reach as 503 with `Retry-After`, anything
 * else a bare 500 (the caller logs it with the request id).
 */
export function httpErrorFor(error: unknown): HttpError {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (isDomainError(cause)) return fromDomain(cause);
  if (isStoreUnavailable(cause)) return STORE_UNAVAILABLE;
  if (error instanceof TRPCError) {
    if (error.code === 'BAD_REQUEST' || error.code === 'PARSE_ERROR') {
      return fromDomain(inputErrorFor((cause as { issues?: InputIssue[] }).issues));
    }
    if (error.code === 'NOT_FOUND') return { status: 404, body: { message: 'Not Found' } };
    if (error.code === 'METHOD_NOT_SUPPORTED')
      return { status: 405, body: { message: 'Method Not Allowed' } };
    return INTERNAL;
  }
  return fromFramework((cause ?? {}) as { code?: string; statusCode?: number; message?: string }) ?? INTERNAL;
}

/**
 * Logs a failure answered `status`: the unexpected ones with the request id, the database's outage once
 * for all the requests it fails (`storeOutage`).
 */
export function logFailure(log: FastifyRequest['log'], error: unknown, status: number): void {
  if (status === STORE_UNAVAILABLE.status && isStoreUnavailable(error)) storeOutage.report(log, error);
  else if (status >= 500) log.error({ err: error }, 'request failed');
}

/** Answers a failure as `httpErrorFor` decides, logging it as `logFailure` does. */
export function replyWithError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const { status, body, headers } = httpErrorFor(error);
  logFailure(request.log, error, status);
  if (headers) reply.headers(headers);
  return reply.code(status).send(body);
}
