import { createHash } from 'node:crypto';
import { idempotencyKeyOf } from '@ci/domain';
import type { AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  normalizePath,
  unwrapZodType,
} from 'trpc-to-openapi';
import { replyWithError } from './http-errors';
import { type QueryShape, queryInput, queryShapeOf } from './query-input';
import type { ResponseCache } from './response-cache';
import { admit, type Meta, type TrpcContext } from './trpc';

/** One REST operation: a procedure with OpenAPI metadata, its path as a pattern. */
interface Operation {
  /** the procedure's dotted path in the router, e.g. `builds.get` */
  path: string;
  pattern: RegExp;
  meta: Meta;
  /** false for a procedure whose input is `z.void()`: it is called with none */
  takesInput: boolean;
  /** how its input reads the query string */
  query: QueryShape;
}

type Call = (input: unknown) => Promise<unknown>;

/** One request on its way to its procedure: matched, its context made, its input read. */
interface Answer {
  request: FastifyRequest;
  reply: FastifyReply;
  ctx: TrpcContext;
  operation: Operation;
  input: unknown;
}

/**
 * Whether a POST creates, so that an `Idempotency-Key` applies to it: a 201, or a `create…` operation (a
 * registry's create answers 200). Other POSTs ignore the header.
 */
const creates = (meta: Meta) => meta.successStatus === 201 || meta.operation?.startsWith('create') === true;

const JSON_TYPE = 'application/json; charset=utf-8';

/** The query string of a request target, as sent (after the first `?`). */
const queryOf = (url: string) => {
  const start = url.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : url.slice(start + 1));
};

/**
 * The router's OpenAPI operations by method, in the router's order (the first whose path matches
 * answers), listed and matched with trpc-to-openapi's own functions: the procedures its document shows
 * (`openapi.enabled` not false), `{name}` one undecoded segment, paths compared case-insensitively with
 * or without a trailing slash, no input for a `z.void()`-like one.
 */
function operationsOf(router: AnyRouter): Map<string, Operation[]> {
  const byMethod = new Map<string, Operation[]>();
  forEachOpenApiProcedure<Meta>(router._def.procedures, ({ path, type, procedure, meta }) => {
    if (type === 'subscription') return;
    const { inputParser } = getInputOutputParsers(procedure);
    const list = byMethod.get(meta.openapi.method) ?? [];
    list.push({
      path,
      pattern: getPathRegExp(normalizePath(meta.openapi.path)),
      meta,
      takesInput: !instanceofZodTypeLikeVoid(unwrapZodType(inputParser, true)),
      query: queryShapeOf(inputParser),
    });
    byMethod.set(meta.openapi.method, list);
  });
  return byMethod;
}

/**
 * Serves the router's OpenAPI procedures as REST under `prefix`: each request is matched to its procedure
 * by method and path (the rules trpc-to-openapi documents them with), and the procedure is called with
 * the path's parameters and the JSON body (POST, PUT, PATCH) or the query string (GET, DELETE;
 * query-input.ts) as its input, which its input schema parses. Every failure answers through `httpErrorFor`,
 * and success statuses come from each procedure's `successStatus`.
 *
 * trpc-to-openapi generates the OpenAPI document from the same metadata (openapi.ts); its request
 * handler is not used: it built a Fetch `Request`, an abort signal and a URL per request and walked the
 * input schema each time, about a fifth of a small request's CPU (ADR 0007).
 */
export function registerRestApi(
  app: FastifyInstance,
  options: {
    prefix: `/${string}`;
    router: AnyRouter;
    createContext: (request: FastifyRequest) => TrpcContext;
    /** responses cached while their revision holds (ADR 0016); none without */
    cache?: ResponseCache;
  },
) {
  const { cache } = options;
  const operations = operationsOf(options.router);
  const caller = options.router.createCaller as (ctx: TrpcContext) => Record<string, unknown>;

  const find = (method: string, pathname: string) => {
    const path = normalizePath(pathname);
    for (const operation of operations.get(method) ?? []) {
      const match = operation.pattern.exec(path);
      if (match) return { operation, params: match.groups ?? {} };
    }
    return null;
  };

  app.register(async (scope) => {
    // A HEAD is answered as its GET: Node's response to a HEAD sends no body, and Fastify then keeps the
    // headers and the Content-Length of the GET's. HEAD is listed here rather than left to Fastify's
    // sibling HEAD route (`exposeHeadRoutes`), which sends `Content-Length: 0` with a 304 (as
    // @fastify/static does, fastify/fastify-static#448).
    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: `${options.prefix}/*`,
      handler: (request: FastifyRequest, reply: FastifyReply) => serve(request, reply),
    });
  });

  /** Answers a REST request: its procedure called with its input, the answer as the procedure's meta says. */
  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(400).send({ message: 'Problems parsing JSON: the body must be a JSON object' });
    }
    // The path below the prefix as a URL reads it (dot segments resolved, percent-escapes kept).
    const { pathname } = new URL(request.url.slice(options.prefix.length) || '/', 'http://127.0.0.1');
    const found = find(method, pathname);
    if (!found) return reply.callNotFound();
    const { operation, params } = found;
    const ctx = options.createContext(request);
    // A GET may be answered by its revision alone, when its procedure says so (`revisionAnswers`).
    if (method === 'GET' && ctx.rest) {
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch) ctx.rest.ifNoneMatch = ifNoneMatch;
      if (cache) ctx.rest.cache = cache;
    }
    // GET and DELETE take their input from the query string and the path, which the procedure's
    // input schema parses; a DELETE's body is read from the context.
    const input = !operation.takesInput
      ? undefined
      : method === 'GET' || method === 'DELETE'
        ? { ...queryInput(queryOf(request.url), operation.query), ...params }
        : { ...body, ...params };
    const key = method === 'POST' && creates(operation.meta) ? request.headers['idempotency-key'] : undefined;
    const call: Answer = { request, reply, ctx, operation, input };
    return key === undefined ? answer(call) : answerIdempotently(call, { key, pathname });
  }

  /**
   * A create's POST with an `Idempotency-Key` (domain `idempotency.ts`): run once per user, key and
   * request, its response kept and answered again to the same request (`Idempotent-Replayed: true`).
   * The caller is admitted here, once: the procedure takes it from the context.
   */
  async function answerIdempotently(call: Answer, request: { key: string | string[]; pathname: string }) {
    const { reply, ctx } = call;
    const key = idempotencyKeyOf(request.key);
    if (typeof key !== 'string') return replyWithError(call.request, reply, key);
    try {
      ctx.admitted = await admit(ctx, call.operation.meta, async () => call.input);
    } catch (error) {
      reply.headers(ctx.response.headers);
      return replyWithError(call.request, reply, error);
    }
    const keyed = { userId: ctx.admitted.user.id, key };
    const requestHash = createHash('sha256')
      .update(`${request.pathname}\n${JSON.stringify(call.request.body ?? {})}`)
      .digest('hex');
    const idempotent = ctx.useCases.idempotentCreate;
    const started = await idempotent.start({ ...keyed, requestHash });
    if (started.kind === 'refuse') {
      reply.headers(ctx.response.headers);
      return replyWithError(call.request, reply, started.error);
    }
    if (started.kind === 'replay') {
      const { status, contentType, body } = started.response;
      reply.code(status).headers(ctx.response.headers).header('Idempotent-Replayed', 'true');
      if (contentType) reply.type(contentType);
      return reply.send(body ?? undefined);
    }
    // The answer is held until it is kept, so that whoever reads the key next finds it.
    let payload: unknown;
    const send = reply.send.bind(reply);
    // It returns nothing: a reply is a thenable settled once sent, which `answer`'s promise would wait for.
    reply.send = ((value?: unknown) => {
      payload = value;
    }) as unknown as FastifyReply['send'];
    try {
      await answer(call);
    } catch (error) {
      await idempotent.release(keyed).catch(() => {});
      throw error;
    } finally {
      reply.send = send;
    }
    if (reply.statusCode >= 500) {
      await idempotent.release(keyed).catch(() => {});
    } else {
      const isObject = typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload);
      const body = payload === undefined ? null : isObject ? JSON.stringify(payload) : String(payload);
      const type = reply.getHeader('content-type');
      await idempotent.finish(keyed, {
        status: reply.statusCode,
        contentType: typeof type === 'string' ? type : isObject ? JSON_TYPE : null,
        body,
      });
    }
    return send(payload);
  }

  /** Calls the procedure and sends its answer, or its failure. */
  async function answer({ request, reply, ctx, operation, input }: Answer) {
    let data: unknown;
    try {
      const procedure = operation.path
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller(ctx)) as Call;
      data = await procedure(input);
    } catch (error) {
      // An error keeps the scopes and rate limits (a 429's above all). `Link` is set only once a
      // list's page was read, so only a failure in presenting it (a 500) can follow it: no pages then.
      const { Link: _pages, ...headers } = ctx.response.headers;
      reply.headers(headers);
      return replyWithError(request, reply, error);
    }
    const { notModified, cached, cacheAs } = ctx.response;
    if (notModified) return reply.code(304).headers(ctx.response.headers).send();
    if (cached) {
      // This request's own headers (scopes, rate limits, ETag) over the cached ones (its pages).
      reply.code(200).headers({ ...cached.headers, ...ctx.response.headers });
      return reply.type(JSON_TYPE).send(cached.body);
    }
    const status = operation.meta.successStatus ?? 200;
    reply.code(status).headers(ctx.response.headers);
    const text = ctx.response.text;
    if (text !== undefined) return reply.type('text/plain; charset=utf-8').send(text);
    if (status === 204 || data === undefined) return reply.send();
    // Sent as bytes, encoded once: a string of a list page's size cost the server a third more system time.
    const json = Buffer.from(JSON.stringify(data));
    if (cacheAs && status === 200) {
      const { Link } = ctx.response.headers;
      cache?.set(cacheAs.key, { revision: cacheAs.revision, headers: Link ? { Link } : {}, body: json });
    }
    return reply.type(JSON_TYPE).send(json);
  }
}
