import type { Actor, UseCases } from '@ci/application';
import {
  type DomainError,
  isDomainError,
  type Operation,
  type RateLimitPolicy,
  rateLimitHeaders,
  scopeFor,
} from '@ci/domain';
import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { httpErrorFor, trpcCodeFor } from './http-errors';
import { type CachedResponse, entityTag, matchesNoneMatch, type ResponseCache } from './response-cache';
import type { ResponseCheck } from './response-validation';

export interface PublicUrls {
  api: string;
  web: string;
}

/** What every procedure sees; `response` is how procedures set headers on either transport. */
export interface TrpcContext {
  useCases: UseCases;
  urls: PublicUrls;
  authorization: string | undefined;
  /**
   * The web app's session (its cookie's secret), over tRPC only: the way a signed-in browser authenticates
   * when it sends no `Authorization`; the server leaves it out of a change that lacks the session's CSRF token.
   */
  session?: string | null;
  /** the request's network address, which organizations' API IP allowlists judge; absent: none */
  clientAddress?: string | null;
  /**
   * REST only: the request's path and query as sent (`target`, for `Link` headers: parsed only when a
   * list has other pages). Over tRPC `rest` is null. The query parameters reach procedures through
   * their input on both (query-input.ts). `body` is the parsed JSON body, for DELETEs: their input
   * holds none.
   */
  rest: {
    target: string;
    body: unknown;
    accept?: string;
    ifNoneMatch?: string;
    /** the server's response cache (ADR 0016); none with RESPONSE_CACHE=off */
    cache?: ResponseCache;
  } | null;
  /**
   * `text`: REST answers it as `text/plain` instead of the JSON result (a raw job log). `notModified`: REST
   * answers 304; `cached`: REST sends it instead of the result; `cacheAs`: REST caches what it sends under
   * this key and revision ({@link revisionAnswers}, {@link tagAnswer}).
   */
  response: {
    headers: Record<string, string>;
    text?: string;
    notModified?: true;
    cached?: CachedResponse;
    cacheAs?: { key: string; revision: string };
  };
  /** the limits every authenticated request counts against; null: rate limiting is off (no query at all) */
  rateLimits: RateLimitPolicy | null;
  /** checks each result against its procedure's response schema (VALIDATE_RESPONSES); absent: none */
  validateResponse?: ResponseCheck;
  /**
   * REST only: the caller as {@link admit} admitted it before the call (an idempotent create keys its
   * answer by user), so the procedure admits (and counts) it no second time.
   */
  admitted?: Actor;
  /** runs the call when one of the server's places for API calls is free (ADR 0028); absent: at once */
  concurrency?: <T>(call: () => Promise<T>) => Promise<T>;
}

export type Meta = OpenApiMeta<{
  /** the REST status of a success; 200 when absent */
  successStatus?: 200 | 201 | 204 | 302;
  /** the operation whose scope the procedure needs, for `X-Accepted-OAuth-Scopes` */
  operation?: Operation;
  /** a success answered with no body at all (delete registry: 200, `Content-Length: 0`) */
  emptyBody?: true;
  /** the component documenting the JSON body, which the procedure's permissive input cannot */
  requestBody?: string;
  /** the body may be left out (stop, pause: every member has a default) */
  requestBodyOptional?: true;
  /** answers an `ETag`, and 304 to `If-None-Match` ({@link revisionAnswers}) */
  conditional?: true;
}>;

const t = initTRPC
  .context<TrpcContext>()
  .meta<Meta>()
  .create({
    isDev: false,
    // tRPC's own error bodies carry the same message as REST ones; unexpected errors stay masked.
    errorFormatter: ({ shape, error }) => {
      const { status, body } = httpErrorFor(error);
      // The body's other members (`errors`; a 429's `scope`, `limit`, `current`, `reset`) ride in `data`.
      const { message, ...rest } = body;
      const data = { ...shape.data, httpStatus: status, ...rest };
      return { ...shape, message: String(message), data };
    },
  });

export const router = t.router;

/**
 * For a REST GET about a pipeline's builds, whether its revision alone answers it (ADR 0016): 304 when
 * `If-None-Match` names its tag, or the cached response made at that revision. Undefined when neither
 * could (no cache, no `If-None-Match`), so the caller need not read the revision for it.
 */
export function revisionAnswers(
  ctx: TrpcContext,
  options: { cacheable: boolean },
): ((revision: string) => boolean) | undefined {
  const rest = ctx.rest;
  const cache = options.cacheable ? rest?.cache : undefined;
  if (!rest || (!rest.ifNoneMatch && !cache)) return undefined;
  return (revision) => {
    const key = `GET ${rest.target}`;
    const tag = entityTag(revision, key);
    ctx.response.headers.ETag = tag;
    if (matchesNoneMatch(rest.ifNoneMatch, tag)) {
      ctx.response.notModified = true;
      return true;
    }
    const cached = cache?.get(key, revision);
    if (cached) ctx.response.cached = cached;
    return cached !== undefined;
  };
}

/** What a procedure returns once {@link revisionAnswers} answered: REST sends that answer instead. */
export const ANSWERED_BY_REVISION = undefined as never;

/** Tags a REST answer made at `revision` (read before its content), and marks it for the cache when `cacheable`. */
export function tagAnswer(ctx: TrpcContext, revision: string | null, options: { cacheable: boolean }): void {
  const rest = ctx.rest;
  if (!rest || revision === null) return;
  const key = `GET ${rest.target}`;
  ctx.response.headers.ETag = entityTag(revision, key);
  if (options.cacheable && rest.cache) ctx.response.cacheAs = { key, revision };
}

/** A domain error as the tRPC error of the matching code, so /trpc answers the same status as /v2. */
function asTrpcError(cause: DomainError): TRPCError {
  return new TRPCError({ code: trpcCodeFor(cause.kind), message: cause.message, cause });
}

/** What a call's input names: the organization, for its rate limit. */
interface Named {
  organization: string | null;
}

async function namedBy(getRawInput: () => Promise<unknown>): Promise<Named> {
  const input = (await getRawInput().catch(() => undefined)) as { organization?: unknown } | null | undefined;
  return { organization: typeof input?.organization === 'string' ? input.organization : null };
}

/**
 * Authenticates, advertises the token's scopes and the scope the operation accepts, and counts the
 * request against the rate limits (before the input is parsed, so a refused request costs no more).
 * With response validation on, a result its procedure's response schema refuses fails the call (a 500
 * whose log holds the issues) instead of reaching the client. The whole call waits for its turn.
 */
export const authed = t.procedure.use(({ ctx, meta, path, next, getRawInput }) => {
  const call = async () => {
    let actor: Actor;
    try {
      actor = ctx.admitted ?? (await admit(ctx, meta, getRawInput));
    } catch (error) {
      throw isDomainError(error) ? asTrpcError(error) : error;
    }
    // One middleware for all three: each level of tRPC's chain copies the call's options and context.
    const result = await next({ ctx: { actor } });
    if (!result.ok && isDomainError(result.error.cause)) {
      // A token revoked while the request ran (a concurrent DELETE /access-token) answers 401 as an
      // unknown token does: without scopes.
      if (result.error.cause.kind === 'unauthenticated') ctx.response.headers['X-OAuth-Scopes'] = '';
      throw asTrpcError(result.error.cause);
    }
    // An answer sent by its revision (304, cached) was checked when it was made.
    const byRevision = ctx.response.notModified || ctx.response.cached;
    if (result.ok && !byRevision) ctx.validateResponse?.(path, result.data);
    return result;
  };
  return ctx.concurrency ? ctx.concurrency(call) : call();
});

/** Authenticates the call and counts it against the rate limits, setting the scope and limit headers. */
export async function admit(
  ctx: TrpcContext,
  meta: Meta | undefined,
  getRawInput: () => Promise<unknown>,
): Promise<Actor> {
  const accepted = meta?.operation ? scopeFor(meta.operation) : null;
  ctx.response.headers['X-Accepted-OAuth-Scopes'] = accepted ?? '';
  ctx.response.headers['X-OAuth-Scopes'] = '';
  const named = await namedBy(getRawInput);
  const admitted = await ctx.useCases.authenticateRequest({
    authorization: ctx.authorization,
    session: ctx.session ?? null,
    clientAddress: ctx.clientAddress ?? null,
    policy: ctx.rateLimits,
  });
  if ('refused' in admitted) {
    Object.assign(ctx.response.headers, admitted.refused.headers);
    throw admitted.refused.error;
  }
  const { actor } = admitted;
  ctx.response.headers['X-OAuth-Scopes'] = actor.scopes.join(', ');
  if (ctx.rateLimits) {
    const status = await ctx.useCases.countRequest(actor, {
      organization: named.organization,
      policy: ctx.rateLimits,
    });
    Object.assign(ctx.response.headers, rateLimitHeaders(status));
    if (status.exceeded) throw status.exceeded;
  }
  return actor;
}
