import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { allowsOrigin, corsOptionsFor, corsResponseHeaders, EXPOSED_HEADERS } from './cors';

const ORIGINS = ['https://a.example', 'https://b.example'];

describe('allowsOrigin', () => {
  it.each<[string[], string | undefined, boolean]>([
    [ORIGINS, 'https://a.example', true],
    [ORIGINS, 'https://b.example', true],
    [ORIGINS, 'https://c.example', false],
    [ORIGINS, 'https://a.example:444', false],
    [ORIGINS, 'http://a.example', false],
    [ORIGINS, 'null', false],
    [ORIGINS, undefined, false],
    [['*'], 'https://anything.example', true],
    [['*'], 'null', true],
    [['*'], undefined, false],
    [['*'], '', false],
    [[], 'https://a.example', false],
  ])('with %j allows %j: %s', (origins, origin, allowed) => {
    expect(allowsOrigin(origins, origin)).toBe(allowed);
  });
});

describe('corsResponseHeaders', () => {
  it('gives an allowed origin itself, Vary and the headers a script may read', () => {
    expect(corsResponseHeaders(ORIGINS, 'https://a.example')).toEqual({
      Vary: 'Origin',
      'Access-Control-Allow-Origin': 'https://a.example',
      'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    });
  });

  it('answers the origin itself, not `*`, when any origin is allowed', () => {
    expect(corsResponseHeaders(['*'], 'https://c.example')['Access-Control-Allow-Origin']).toBe(
      'https://c.example',
    );
  });

  it('gives another origin no CORS header, only Vary', () => {
    expect(corsResponseHeaders(ORIGINS, 'https://c.example')).toEqual({ Vary: 'Origin' });
  });

  it('exposes Link, every rate-limit header by name, the scope headers and the request id', () => {
    expect(EXPOSED_HEADERS.split(', ')).toEqual([
      'Link',
      'RateLimit-Remaining',
      'RateLimit-Limit',
      'RateLimit-Reset',
      'RateLimit-User-Remaining',
      'RateLimit-User-Limit',
      'RateLimit-User-Reset',
      'Retry-After',
      'X-OAuth-Scopes',
      'X-Accepted-OAuth-Scopes',
      'X-Request-Id',
    ]);
  });
});

describe('corsOptionsFor', () => {
  const request = (url: string, headers: Record<string, string>) =>
    ({ url, headers }) as unknown as FastifyRequest;

  it('answers an allowed origin by name on an API path, a preflight when it asks for a method', () => {
    const options = corsOptionsFor(
      ORIGINS,
      request('/v2/builds', { origin: 'https://a.example', 'access-control-request-method': 'POST' }),
    );
    expect(options).toEqual({
      origin: true,
      preflight: true,
      methods: 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      maxAge: 7200,
    });
  });

  it('exposes the headers a script may read on any other request, OPTIONS without a method too', () => {
    expect(corsOptionsFor(ORIGINS, request('/graphql', { origin: 'https://b.example' }))).toEqual({
      origin: true,
      preflight: false,
      exposedHeaders: EXPOSED_HEADERS,
    });
  });

  it.each<[string, Record<string, string>]>([
    ['/v2/builds', { origin: 'https://c.example' }],
    ['/v2/builds', {}],
    ['/healthz', { origin: 'https://a.example' }],
    ['/v2x', { origin: 'https://a.example' }],
  ])('turns CORS off on %s with %j', (url, headers) => {
    expect(corsOptionsFor(ORIGINS, request(url, headers))).toEqual({ origin: false });
  });
});
