import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a credential: their values never reach the log. */
const CREDENTIAL_PARAMETER = /([?&](?:access_token|token|api_key)=)[^&#]*/gi;

/** A request's URL as logged: a token given in the query string (`?access_token=…`) replaced. */
export function loggedUrl(url: string): string {
  return url.replace(CREDENTIAL_PARAMETER, '$1[redacted]');
}

/** Fastify's request serializer (its fields), with the URL as `loggedUrl` writes it. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
