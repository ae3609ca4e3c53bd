import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpErrorFor } from './http-errors';
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
    responseMeta: ({ ctx }) => ({ headers: ctx?.response.headers ?? {} }),
    onError: ({ error, req }) => {
      if (httpErrorFor(error).status >= 500) req.log.error({ err: error }, 'request failed');
    },
  };
  app.register(fastifyTRPCPlugin, { prefix: options.prefix, trpcOptions });
}
