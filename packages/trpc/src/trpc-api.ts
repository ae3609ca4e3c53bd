import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpErrorFor, logFailure } from './http-errors';
import { type AppRouter, appRouter } from './router';
import type { TrpcContext } from './trpc';

/** Serves the router as typed tRPC under `prefix`, for internal TypeScript apps (the CLI's remote mode). */
export function registerTrpcApi(
  app: FastifyInstance,
  options: { prefix: `/${string}`; createContext: (request: FastifyRequest) => TrpcContext },
) {
  const trpcOptions: FastifyTRPCPluginOptions<AppRouter>['trpcOptions'] = {
    router: appRouter,
    createContext: ({ req }) => options.createContext(req),
    // A failure's own headers (a 503's Retry-After) beside the context's.
    responseMeta: ({ ctx, errors }) => ({
      headers: Object.assign(
        {},
        ctx?.response.headers,
        ...errors.map((error) => httpErrorFor(error).headers),
      ),
    }),
    onError: ({ error, req }) => logFailure(req.log, error, httpErrorFor(error).status),
  };
  app.register(fastifyTRPCPlugin, { prefix: options.prefix, trpcOptions });
}
