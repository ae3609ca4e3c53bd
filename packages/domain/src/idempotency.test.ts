import { describe, expect, it } from 'vitest';
import { decideOnHeldKey, idempotencyKeyOf } from './idempotency';

describe('idempotencyKeyOf', () => {
  it.each(['a', '0b0e8f0e-6d3c-4b7e-9a51-1f8f6c1e2d3a', 'x'.repeat(255), '!~'])('takes %s', (key) => {
    expect(idempotencyKeyOf(key)).toBe(key);
  });

  it.each<[string | string[], string]>([
    ['', 'empty'],
    ['x'.repeat(256), 'too long'],
    ['a b', 'a space'],
    ['é', 'not ASCII'],
    [['a', 'b'], 'sent twice'],
  ])('refuses %s (%s) with a 400', (key) => {
    expect(idempotencyKeyOf(key)).toMatchObject({
      kind: 'bad_request',
      code: 'invalid_idempotency_key',
    });
  });
});

describe('decideOnHeldKey', () => {
  const response = { status: 201, contentType: 'application/json; charset=utf-8', body: '{}' };

  it('answers the kept response to the same request', () => {
    expect(decideOnHeldKey({ requestHash: 'h', response }, 'h')).toEqual({ kind: 'replay', response });
  });

  it('waits for the same request still running', () => {
    expect(decideOnHeldKey({ requestHash: 'h', response: null }, 'h')).toEqual({ kind: 'wait' });
  });

  it.each([response, null])('refuses another request 422 whether the first is done or not', (kept) => {
    const decision = decideOnHeldKey({ requestHash: 'h', response: kept }, 'other');
    expect(decision).toMatchObject({
      kind: 'refuse',
      error: { kind: 'unprocessable', code: 'idempotency_key_reused' },
    });
  });
});
