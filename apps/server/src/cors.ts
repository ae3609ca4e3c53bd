import { RATE_LIMIT_HEADERS } from '@ci/domain';
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from './api-path';

/** What a browser script may read of a response; the header takes names only, no wildcards. */
export const EXPOSED_HEADERS = [
  'Link',
  ...RATE_LIMIT_HEADERS,
  'Retry-After',
  'X-OAuth-Scopes',
  'X-Accepted-OAuth-Scopes',
  'X-Request-Id',
].join(', ');

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Two hours: the longest that Chromium keeps a preflight. */
const MAX_AGE_SECONDS = 7200;

/** Whether `origins` (from `CORS_ORIGINS`, `*` for any) allows a request's `Origin`. */
export function allowsOrigin(origins: readonly string[], origin: string | undefined): origin is string {
  return origin !== undefined && origin !== '' && (origins.includes('*') || origins.includes(origin));
}

/**
 * The CORS headers of an actual response: the origin itself when allowed (not `*`, so that the answer is
 * the same whether or not a wildcard is configured), nothing else when not. `Vary: Origin` either way:
 * the response differs by origin, and caches must know.
 */
export function corsResponseHeaders(
  origins: readonly string[],
  origin: string | undefined,
): Record<string, string> {
  if (!allowsOrigin(origins, origin)) return { Vary: 'Origin' };
  return {
    Vary: 'Origin',
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  };
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * `@fastify/cors`'s options for one request: CORS only on the API paths and for an allowed origin, which
 * is answered by name. A preflight (`OPTIONS` with `Access-Control-Request-Method`) answers 204 in the
 * `onRequest` hook, before routing, on any API path, with the request's headers allowed (they are what
 * the browser will send); any other `OPTIONS` is routed as usual (404).
 */
export function corsOptionsFor(origins: readonly string[], request: FastifyRequest): FastifyCorsOptions {
  if (!isApiPath(request.url) || !allowsOrigin(origins, header(request, 'origin'))) return { origin: false };
  const preflight = header(request, 'access-control-request-method') !== undefined;
  // A preflight's answer is for the browser, not a script: nothing in it to expose.
  return preflight
    ? { origin: true, preflight, methods: ALLOWED_METHODS, maxAge: MAX_AGE_SECONDS }
    : { origin: true, preflight, exposedHeaders: EXPOSED_HEADERS };
}

/**
 * CORS headers on a reply that no hook saw (a request the router refused before routing), as
 * `@fastify/cors` would have put them.
 */
export function applyCors(origins: readonly string[], request: FastifyRequest, reply: FastifyReply): void {
  if (origins.length === 0 || !isApiPath(request.url)) return;
  reply.headers(corsResponseHeaders(origins, header(request, 'origin')));
}

/** CORS for the API paths when origins are configured (`@fastify/cors`); with none, nothing is registered. */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(fastifyCors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => callback(null, corsOptionsFor(origins, request)),
  });
}
