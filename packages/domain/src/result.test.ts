import { describe, expect, it } from 'vitest';
import { err, ok } from './result';

describe('result', () => {
  it('wraps a value as a success', () => {
    expect(ok(42)).toEqual({ ok: true, value: 42 });
  });

  it('wraps an error as a failure', () => {
    expect(err('boom')).toEqual({ ok: false, error: 'boom' });
  });
});
