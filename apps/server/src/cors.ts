import { RATE_LIMIT_HEADERS } from '@ci/domain';
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
const ALWAYS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id'];
/** Two hours: the longest that Chromium keeps a preflight. */
const MAX_AGE_SECONDS = '7200';

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

/** The headers of a preflight's 204: what may be sent, for how long; only the `Vary` for other origins. */
export function corsPreflightHeaders(
  origins: readonly string[],
  origin: string | undefined,
  requestedHeaders: string | undefined,
): Record<string, string> {
  const vary = { Vary: 'Origin, Access-Control-Request-Headers' };
  if (!allowsOrigin(origins, origin)) return vary;
  const allowed = [...ALWAYS_ALLOWED_HEADERS];
  for (const name of (requestedHeaders ?? '').split(',').map((item) => item.trim())) {
    if (
      /^[!#$%&'*+.^`|~\w-]+$/.test(name) &&
      !allowed.some((known) => known.toLowerCase() === name.toLowerCase())
    )
      allowed.push(name);
  }
  return {
    ...vary,
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': allowed.join(', '),
    'Access-Control-Max-Age': MAX_AGE_SECONDS,
  };
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Puts the CORS headers of an actual response on a reply to an API path (errors included). */
export function applyCors(origins: readonly string[], request: FastifyRequest, reply: FastifyReply): void {
  if (origins.length === 0 || !isApiPath(request.url)) return;
  reply.headers(corsResponseHeaders(origins, header(request, 'origin')));
}

/**
 * CORS for the API paths when origins are configured: preflights (`OPTIONS` with
 * `Access-Control-Request-Method`) answer 204 before routing, on any API path; every other response
 * carries the allowed origin. With no origins configured nothing is registered.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return;
    const preflight = request.method === 'OPTIONS' && header(request, 'access-control-request-method');
    if (!preflight) {
      applyCors(origins, request, reply);
      return;
    }
    const origin = header(request, 'origin');
    const requested = header(request, 'access-control-request-headers');
    return reply
      .code(204)
      .headers(corsPreflightHeaders(origins, origin, requested))
      .send();
  });
}
