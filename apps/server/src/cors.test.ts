import { describe, expect, it } from 'vitest';
import { allowsOrigin, corsPreflightHeaders, corsResponseHeaders, EXPOSED_HEADERS } from './cors';

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

describe('corsPreflightHeaders', () => {
  it('allows the methods, Authorization, Content-Type and what the browser asks for, for two hours', () => {
    expect(
      corsPreflightHeaders(ORIGINS, 'https://b.example', 'content-type, x-client, authorization'),
    ).toEqual({
      Vary: 'Origin, Access-Control-Request-Headers',
      'Access-Control-Allow-Origin': 'https://b.example',
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Request-Id, x-client',
      'Access-Control-Max-Age': '7200',
    });
  });

  it('ignores requested names that are not header names', () => {
    expect(
      corsPreflightHeaders(ORIGINS, 'https://a.example', 'x-ok, bad name, , x\u0000y')[
        'Access-Control-Allow-Headers'
      ],
    ).toBe('Authorization, Content-Type, X-Request-Id, x-ok');
  });

  it('gives another origin nothing it could use', () => {
    expect(corsPreflightHeaders(ORIGINS, 'https://c.example', 'authorization')).toEqual({
      Vary: 'Origin, Access-Control-Request-Headers',
    });
  });
});
