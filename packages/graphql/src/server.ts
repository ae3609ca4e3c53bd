import type { Actor, UseCases } from '@ci/application';
import { hasScope, isDomainError, missingScope, type RateLimitPolicy, rateLimitHeaders } from '@ci/domain';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { createYoga, shouldRenderGraphiQL, useErrorHandler } from 'graphql-yoga';
import type { GraphqlContext, PublicUrls } from './builder';
import { isUnexpected, maskError, refusal } from './errors';
import { createLoaders } from './loaders';
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
}

/** What the HTTP server hands each request: who logs its unexpected failures (with its request id). */
export interface GraphqlRequestContext {
  logError: (error: unknown) => void;
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
  const yoga = createYoga<ServerContext, GraphqlContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    cors: false,
    batching: false,
    logging: false,
    graphiql: {
      title: 'CI control API: GraphQL',
      headers: JSON.stringify({ Authorization: 'Bearer <your API access token>' }, null, 2),
    },
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
      maxDepthPlugin({ n: limits.maxDepth, flattenFragments: true }),
      maxAliasesPlugin({ n: limits.maxAliases }),
      useCostLimit({ maxCost: limits.maxCost }),
      useErrorHandler(({ errors, context }) => {
        // In the execution phase `context` is graphql-js's execution arguments; the request's is inside.
        const request = ((context as { contextValue?: unknown }).contextValue ??
          context) as Partial<ServerContext>;
        for (const error of errors) if (isUnexpected(error)) request.logError?.(error);
      }),
    ],
  });

  return {
    async handle(request: Request, context: GraphqlRequestContext): Promise<Response> {
      // The browser's GraphiQL page runs nothing; its queries come back as POSTs with a token.
      if (shouldRenderGraphiQL(request)) return yoga.fetch(request, { ...context, actor: null });
      let actor: Actor;
      try {
        actor = await options.useCases.authenticate(request.headers.get('authorization') ?? undefined);
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return refusal(401, error.message, {
          'X-Accepted-OAuth-Scopes': ACCEPTED_SCOPES,
          'X-OAuth-Scopes': '',
        });
      }
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
        if (status.exceeded) {
          return refusal(429, status.exceeded.message, headers, status.exceeded.fields);
        }
      }
      if (!hasScope(actor.scopes, 'graphql')) return refusal(403, missingScope('graphql').message, headers);
      const response = await yoga.fetch(request, { ...context, actor });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    },
  };
}

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;
