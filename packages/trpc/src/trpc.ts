import {
  type Actor,
  type AnswerMemory,
  type PipelineSlugs,
  pipelineSlugs,
  type RememberedAnswer,
  type UseCases,
} from '@ci/application';
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
   * REST only: the request's path and query as sent (`target`, for `Link` headers: parsed only when a
   * list has other pages). Over tRPC `rest` is null. The query parameters reach procedures through
   * their input on both (query-input.ts). `body` is the parsed JSON body, for DELETEs: their input
   * holds none.
   */
  rest: {
    target: string;
    body: unknown;
    accept?: string;
    /** the answers the server keeps to send again (ADR 0012), when this request may be answered by one */
    answers?: AnswerMemory;
  } | null;
  /**
   * `text`: REST answers it as `text/plain` instead of the JSON result (a raw job log). `reused`: the kept
   * answer that holds, which REST sends instead of the result; `kept`: the answer may be kept, under this
   * key and revision (ADR 0012, {@link reusesAnswer}).
   */
  response: {
    headers: Record<string, string>;
    text?: string;
    reused?: RememberedAnswer;
    kept?: { key: string; revision: string };
  };
  /** the limits every authenticated request counts against; null: rate limiting is off (no query at all) */
  rateLimits: RateLimitPolicy | null;
  /** checks each result against its procedure's response schema (VALIDATE_RESPONSES); absent: none */
  validateResponse?: ResponseCheck;
}

export type Meta = OpenApiMeta<{
  /** the REST status of a success; 200 when absent */
  successStatus?: 200 | 201 | 204;
  /** the operation whose scope the procedure needs, for `X-Accepted-OAuth-Scopes` */
  operation?: Operation;
  /** a success answered with no body at all (delete registry: 200, `Content-Length: 0`) */
  emptyBody?: true;
  /** the component documenting the JSON body, which the procedure's permissive input cannot */
  requestBody?: string;
  /**
   * What the token's statement reads ahead for the procedure (ADR 0007): `pipeline`, the user's access to
   * the pipeline its input names by slug (`organization`, `pipeline`); `build`, that and the build its
   * `number` names. Only procedures whose use case checks that pipeline carry it.
   */
  readAhead?: 'pipeline' | 'build';
  /**
   * REST may answer the procedure with the answer it kept for the same request (ADR 0012,
   * {@link reusesAnswer}): its `readAhead: 'pipeline'` then reads the pipeline's content revision too.
   */
  keepsAnswer?: true;
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
 * For a procedure whose answer REST may keep (ADR 0012): reads the answer's revision when the server keeps
 * answers, and says whether the kept answer for this very request still holds (the procedure then returns
 * at once, and REST sends the kept one). Otherwise the revision goes with the answer the procedure makes.
 * The revision is read before anything the answer shows.
 */
export async function reusesAnswer(
  ctx: TrpcContext,
  revisionOf: () => Promise<string | null>,
): Promise<boolean> {
  const answers = ctx.rest?.answers;
  if (!answers) return false;
  const revision = await revisionOf();
  if (revision === null) return false;
  // A GET's answer depends on its path and query; the revision stands for everything else.
  const key = `GET ${ctx.rest?.target}`;
  const reused = answers.recall(key, revision);
  if (reused) ctx.response.reused = reused;
  else ctx.response.kept = { key, revision };
  return reused !== undefined;
}

/** A domain error as the tRPC error of the matching code, so /trpc answers the same status as /v2. */
function asTrpcError(cause: DomainError): TRPCError {
  return new TRPCError({ code: trpcCodeFor(cause.kind), message: cause.message, cause });
}

/** What a call's input names: the organization (for its rate limit), and the pipeline and build slugs. */
interface Named {
  organization: string | null;
  pipeline: string | null;
  number: string | null;
}

async function namedBy(getRawInput: () => Promise<unknown>): Promise<Named> {
  const input = (await getRawInput().catch(() => undefined)) as
    | { organization?: unknown; pipeline?: unknown; number?: unknown }
    | null
    | undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    organization: text(input?.organization),
    pipeline: text(input?.pipeline),
    number: text(input?.number),
  };
}

/**
 * What the token's statement reads ahead: what the procedure's `meta.readAhead` asks for, if its input
 * names it, and the content revision when a kept answer may answer it (`meta.keepsAnswer`, REST keeping
 * answers).
 */
function readAheadOf(ctx: TrpcContext, named: Named, meta: Meta | undefined): PipelineSlugs | undefined {
  const readAhead = meta?.readAhead;
  if (!readAhead || named.organization === null || named.pipeline === null) return undefined;
  const slugs = pipelineSlugs(
    named.organization,
    named.pipeline,
    readAhead === 'build' ? named.number : null,
  );
  return meta?.keepsAnswer && ctx.rest?.answers ? { ...slugs, contentRevision: true } : slugs;
}

/**
 * Authenticates, advertises the token's scopes and the scope the operation accepts, and counts the
 * request against the rate limits (before the input is parsed, so a refused request costs no more).
 * With response validation on, a result its procedure's response schema refuses fails the call (a 500
 * whose log holds the issues) instead of reaching the client.
 */
export const authed = t.procedure.use(async ({ ctx, meta, path, next, getRawInput }) => {
  let actor: Actor;
  try {
    actor = await admit(ctx, meta, getRawInput);
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
  if (result.ok) ctx.validateResponse?.(path, result.data);
  return result;
});

async function admit(
  ctx: TrpcContext,
  meta: Meta | undefined,
  getRawInput: () => Promise<unknown>,
): Promise<Actor> {
  const accepted = meta?.operation ? scopeFor(meta.operation) : null;
  ctx.response.headers['X-Accepted-OAuth-Scopes'] = accepted ?? '';
  ctx.response.headers['X-OAuth-Scopes'] = '';
  const named = await namedBy(getRawInput);
  // A call that names a pipeline reads what the user may see of it with the token, in one round trip.
  const actor = await ctx.useCases.authenticate(ctx.authorization, readAheadOf(ctx, named, meta));
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
