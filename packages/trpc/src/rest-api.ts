import type { AnyRouter } from '@trpc/server';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { replyWithError } from './http-errors';
import type { Meta, TrpcContext } from './trpc';

type RawRequest = FastifyRequest['raw'] & {
  fastifyRequest?: FastifyRequest;
  body?: unknown;
  query?: unknown;
  restError?: unknown;
  trpcContext?: TrpcContext;
};

/** The procedure's headers that an error answer keeps too: scopes, request id, rate limits (a 429's above all). */
const keptOnError = (name: string) =>
  name.startsWith('X-') || name.startsWith('RateLimit-') || name === 'Retry-After';

/**
 * Serves the router's OpenAPI procedures as REST under `prefix`. Wraps the library's node handler so that
 * every failure goes through `httpErrorFor` (the library would answer `{code, issues}` and raw 500
 * messages) and success statuses come from each procedure's `successStatus`.
 */
export function registerRestApi(
  app: FastifyInstance,
  options: {
    prefix: `/${string}`;
    router: AnyRouter;
    createContext: (request: FastifyRequest) => TrpcContext;
  },
) {
  const procedures = options.router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  const handler = createOpenApiNodeHttpHandler({
    router: options.router,
    createContext: ({ req }) => {
      const raw = req as RawRequest;
      raw.trpcContext = options.createContext(raw.fastifyRequest as FastifyRequest);
      return raw.trpcContext;
    },
    responseMeta: ({ ctx, paths, errors }) => {
      const headers = (ctx as TrpcContext | undefined)?.response.headers ?? {};
      if (errors.length) return { headers };
      const meta = paths?.[0] ? procedures[paths[0]]?._def.meta : undefined;
      return { status: meta?.successStatus ?? 200, headers };
    },
    onError: ({ error, req }) => {
      (req as RawRequest).restError = error;
    },
  });

  app.register(async (scope) => {
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: `${options.prefix}/*`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const raw = request.raw as RawRequest;
        const originalUrl = request.originalUrl; // read before raw.url changes
        const body = request.body ?? {};
        if (typeof body !== 'object' || Array.isArray(body)) {
          return reply.code(400).send({ message: 'Problems parsing JSON: the body must be a JSON object' });
        }
        raw.fastifyRequest = request;
        raw.url = request.url.slice(options.prefix.length) || '/';
        raw.body = body;
        // Procedures read the raw query string themselves (every array encoding); the library sees none.
        raw.query = {};
        // The server has parsed the body already (JSON whatever its Content-Type, empty on body-less PUTs).
        raw.headers['content-type'] = 'application/json';
        let status = 200;
        let payload: string | undefined;
        const headers: Record<string, string> = {};
        const res = {
          get statusCode() {
            return status;
          },
          set statusCode(value: number) {
            status = value;
          },
          setHeader(name: string, value: string) {
            headers[name] = value;
          },
          end(chunk?: string) {
            payload = chunk;
          },
          once: reply.raw.once.bind(reply.raw),
          on: reply.raw.on.bind(reply.raw),
          off: reply.raw.off.bind(reply.raw),
          get writableEnded() {
            return reply.raw.writableEnded;
          },
        };
        await handler(raw as never, res as never);
        raw.url = originalUrl;
        if (raw.restError) {
          const error = raw.restError;
          // No procedure has this path: the server's own 404 answers.
          if (error instanceof TRPCError && error.code === 'NOT_FOUND' && !error.cause) {
            return reply.callNotFound();
          }
          for (const [name, value] of Object.entries(headers))
            if (keptOnError(name)) reply.header(name, value);
          return replyWithError(request, reply, error);
        }
        reply.code(status);
        for (const [name, value] of Object.entries(headers))
          if (name.toLowerCase() !== 'content-type') reply.header(name, value);
        const text = raw.trpcContext?.response.text;
        if (text !== undefined) return reply.type('text/plain; charset=utf-8').send(text);
        if (status === 204 || payload === undefined) return reply.send();
        return reply.type('application/json; charset=utf-8').send(payload);
      },
    });
  });
}
