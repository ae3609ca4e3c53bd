import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Actor, isStoreUnavailable, type UseCases } from '@ci/application';
import {
  hasScope,
  isDomainError,
  missingScope,
  payloadTooLarge,
  type RateLimitPolicy,
  rateLimitHeaders,
} from '@ci/domain';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { createYoga, type GraphiQLOptions, shouldRenderGraphiQL, useErrorHandler } from 'graphql-yoga';
import pMemoize from 'p-memoize';
import type { GraphqlContext, PublicUrls } from './builder';
import { useCompiledQueries } from './compiled-execution';
import { isUnexpected, maskError, refusal, storeUnavailable } from './errors';
import { createLoaders } from './loaders';
import { useOverlappingFieldsUpToNullability } from './overlapping-fields';
import { type PostedParams, postedParams } from './posted-params';
import { useCostLimit } from './query-cost';
import { schema } from './schema';

/** Limits that refuse an operation before any resolver runs (ADR 0004). */
export interface GraphqlLimits {
  /** selection depth, fragments included */
  maxDepth: number;
  /** aliased fields in one operation */
  maxAliases: number;
  /** see `operationCost` */
  maxCost: number;
}

export const DEFAULT_LIMITS: GraphqlLimits = { maxDepth: 15, maxAliases: 40, maxCost: 50_000 };

export interface GraphqlServerOptions {
  useCases: UseCases;
  urls: PublicUrls;
  limits?: Partial<GraphqlLimits>;
  /** null: requests are not counted (RATE_LIMIT_ENABLED=false) */
  rateLimits?: RateLimitPolicy | null;
  /** the longest body `handle` reads (the HTTP server bounds the bodies it hands `handleNode` itself) */
  maxBodyBytes?: number;
}

/** As the HTTP server's default `BODY_LIMIT_BYTES`. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** What the HTTP server hands each request: who logs its unexpected failures (with its request id). */
export interface GraphqlRequestContext {
  logError: (error: unknown) => void;
  /** the request's network address, for organizations' API IP allowlists; absent: none */
  clientAddress?: string | null;
}

/** What `handleNode` reads of a Node request: `raw` for the URL, the body already read as text. */
interface NodeGraphqlRequest {
  raw: IncomingMessage;
  method: string;
  headers: IncomingHttpHeaders;
  body?: string | undefined;
}

/** An answer as the HTTP server sends it: yoga's read into bytes (`answerOf`). */
export interface GraphqlAnswer {
  status: number;
  /** lower-case names; `content-type` among them */
  headers: Record<string, string>;
  body: Buffer;
}

interface ServerContext extends GraphqlRequestContext {
  actor: Actor | null;
}

const ACCEPTED_SCOPES = 'graphql';

/**
 * GraphQL at `/graphql` (graphql-yoga over the Pothos schema): GraphiQL for a browser's GET, otherwise
 * the same bearer tokens as REST, a token without the `graphql` scope refused, and every field answered
 * by the use cases with the caller as actor.
 */
export function createGraphqlServer(options: GraphqlServerOptions) {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // GraphiQL's page with its scripts and styles inline, from the npm package: nothing from a CDN. Its
  // module (~28 MB of heap) is imported on the first page asked for, not with GraphQL; rendered once.
  const graphiqlPage = pMemoize(
    async (page: GraphiQLOptions) => {
      const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
      return new TextEncoder().encode(renderGraphiQL(page));
    },
    { cacheKey: () => 'page' },
  );
  const yoga = createYoga<ServerContext, GraphqlContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    cors: false,
    batching: false,
    // Bodies reach yoga read and bounded (`handleNode`: by the HTTP server; `handle`: below); yoga's own
    // limit would stream each one through a size-counting transform again.
    maxRequestBodySize: false,
    logging: false,
    graphiql: {
      title: 'CI control API: GraphQL',
      headers: JSON.stringify({ Authorization: 'Bearer <your API access token>' }, null, 2),
      // The token pasted into the headers once is kept in the browser's localStorage.
      shouldPersistHeaders: true,
    },
    renderGraphiQL: graphiqlPage,
    maskedErrors: { maskError },
    context: ({ actor }): GraphqlContext => {
      if (!actor) throw new Error('GraphQL ran without an actor');
      return {
        actor,
        useCases: options.useCases,
        urls: options.urls,
        loaders: createLoaders(options.useCases, actor),
      };
    },
    plugins: [
      useOverlappingFieldsUpToNullability(),
      maxDepthPlugin({ n: limits.maxDepth, flattenFragments: true }),
      maxAliasesPlugin({ n: limits.maxAliases }),
      useCostLimit({ maxCost: limits.maxCost }),
      // After the limits: they refuse before any execution, compiled or not.
      useCompiledQueries(),
      useErrorHandler(({ errors, context }) => {
        // In the execution phase `context` is graphql-js's execution arguments; the request's is inside.
        const request = ((context as { contextValue?: unknown }).contextValue ??
          context) as Partial<ServerContext>;
        for (const error of errors) if (isUnexpected(error)) request.logError?.(error);
      }),
    ],
  });

  type Admission = { refused: Response } | { actor: Actor; headers: Record<string, string> };

  /** Who asks, and whether they may: the bearer token, the rate limit, then the `graphql` scope. */
  async function admit(authorization: string | undefined, clientAddress: string | null): Promise<Admission> {
    // A refused token counts against its client address, as on REST and tRPC.
    const admitted = await options.useCases
      .authenticateRequest({
        authorization,
        session: null,
        clientAddress,
        policy: options.rateLimits ?? null,
      })
      .catch((error: unknown) => {
        if (!isDomainError(error)) throw error;
        return { refused: { error, headers: {} } };
      });
    if ('refused' in admitted) {
      return {
        refused: refusal(admitted.refused.error, {
          'X-Accepted-OAuth-Scopes': ACCEPTED_SCOPES,
          'X-OAuth-Scopes': '',
          ...admitted.refused.headers,
        }),
      };
    }
    const { actor } = admitted;
    const headers: Record<string, string> = {
      'X-Accepted-OAuth-Scopes': ACCEPTED_SCOPES,
      'X-OAuth-Scopes': actor.scopes.join(', '),
    };
    // Counted as REST counts a request that names no organization: against the user's limit.
    if (options.rateLimits) {
      const status = await options.useCases.countRequest(actor, {
        organization: null,
        policy: options.rateLimits,
      });
      Object.assign(headers, rateLimitHeaders(status));
      if (status.exceeded) return { refused: refusal(status.exceeded, headers) };
    }
    if (!hasScope(actor.scopes, 'graphql')) return { refused: refusal(missingScope('graphql'), headers) };
    return { actor, headers };
  }

  /**
   * One request, however it came: GraphiQL's page for a browser (it runs nothing; its queries come back
   * as POSTs with a token), otherwise admitted first, then run by yoga as the actor, with the admission's
   * headers on the answer.
   */
  async function answer(
    request: {
      rendersGraphiql: boolean;
      authorization: string | undefined;
      clientAddress: string | null;
      accept: string | undefined;
      params?: PostedParams | undefined;
      logError: (error: unknown) => void;
    },
    run: (actor: Actor | null) => Response | Promise<Response>,
  ): Promise<GraphqlAnswer> {
    if (request.rendersGraphiql) return answerOf(await run(null));
    let admission: Admission;
    try {
      admission = await admit(request.authorization, request.clientAddress);
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      request.logError(error);
      return answerOf(storeUnavailable());
    }
    if ('refused' in admission) return answerOf(admission.refused);
    const answered = await answerOf(await run(admission.actor));
    for (const [name, value] of Object.entries(admission.headers))
      answered.headers[name.toLowerCase()] = value;
    return answered;
  }

  return {
    /**
     * A Fetch request (tests, other runtimes): its body read here up to `maxBodyBytes` and refused past
     * it with the HTTP server's 413, before the token, as the HTTP server refuses the bodies it reads.
     */
    async handle(request: Request, context: GraphqlRequestContext): Promise<Response> {
      const body = request.method === 'POST' ? await boundedText(request, maxBodyBytes) : undefined;
      if (body === null) {
        const { message } = payloadTooLarge();
        return Response.json({ message }, { status: 413 });
      }
      const answered = await answer(
        {
          rendersGraphiql: shouldRenderGraphiQL(request),
          authorization: request.headers.get('authorization') ?? undefined,
          clientAddress: context.clientAddress ?? null,
          logError: context.logError,
          accept: request.headers.get('accept') ?? undefined,
          params: postedParams(request.headers.get('content-type') ?? undefined, body),
        },
        (actor) =>
          yoga.fetch(
            new Request(request.url, {
              method: request.method,
              headers: request.headers,
              body: body ?? null,
              signal: request.signal,
            }),
            { ...context, actor },
          ),
      );
      // An empty body goes as none: a Fetch response of a bodiless status (204, 304) refuses even an empty one.
      return new Response(answered.body.length ? (answered.body as Uint8Array<ArrayBuffer>) : null, {
        status: answered.status,
        headers: answered.headers,
      });
    },

    /**
     * A Node request whose body the HTTP server has already read as text (Fastify's request fits), and
     * the response it will answer on (its closing aborts the operation). Yoga builds its own light
     * Fetch request from them; the caller sends the returned response.
     */
    async handleNode(
      request: NodeGraphqlRequest,
      response: ServerResponse,
      context: GraphqlRequestContext,
    ): Promise<GraphqlAnswer> {
      const params =
        request.method === 'POST' ? postedParams(request.headers['content-type'], request.body) : undefined;
      return answer(
        {
          rendersGraphiql: request.method === 'GET' && request.headers.accept?.includes('text/html') === true,
          authorization: request.headers.authorization,
          clientAddress: context.clientAddress ?? null,
          logError: context.logError,
          accept: request.headers.accept,
          params,
        },
        // Parsed parameters go to yoga as the body it would have parsed (`postedParams`).
        (actor) =>
          yoga.handleNodeRequestAndResponse(params ? { ...request, body: params } : request, response, {
            ...context,
            actor,
          }),
      );
    },
  };
}

/**
 * A Fetch response as the HTTP server sends it. Yoga's carry their body as a string (the result's JSON,
 * GraphiQL's page): read as its UTF-8 bytes, encoded once. Header names in lower case (yoga's may be
 * capitalized); one without a type of its own (a bodyless 415) has none here either.
 */
async function answerOf(response: Response): Promise<GraphqlAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (lower !== 'content-length') headers[lower] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.text()) };
}

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;

/** The request's body as text, or null when it is longer than `max` bytes (read no further then). */
async function boundedText(request: Request, max: number): Promise<string | null> {
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.byteLength;
    if (length > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}
