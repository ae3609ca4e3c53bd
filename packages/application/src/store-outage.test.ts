import { describe, expect, it, vi } from 'vitest';
import { isStoreUnavailable, StoreOutage } from './store-outage';

const withCode = (code: string) => Object.assign(new Error('failed'), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['an administrator shutdown', withCode('57P01')],
    ['a connection exception (class 08)', withCode('08006')],
    ['too many connections', withCode('53300')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ["the pool's connect timeout", new Error('timeout exceeded when trying to connect')],
    [
      'a cause two levels down',
      new Error('outer', { cause: new Error('inner', { cause: withCode('ECONNREFUSED') }) }),
    ],
    ["GraphQL's original error", Object.assign(new Error('wrapped'), { originalError: withCode('57P01') })],
    ["one of an AggregateError's", new AggregateError([new Error('x'), withCode('ECONNREFUSED')])],
  ])('says yes to %s', (_case, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    [
      'a domain error whatever its message',
      Object.assign(new Error('Connection terminated'), { kind: 'conflict' }),
    ],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('says no to %s', (_case, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});

describe('StoreOutage', () => {
  it('logs an outage once, however many requests it fails, and its end once the probe answers', async () => {
    vi.useFakeTimers();
    try {
      const log = { error: vi.fn(), info: vi.fn() };
      let reachable = false;
      const outage = new StoreOutage(1000);
      outage.probeWith(async () => {
        if (!reachable) throw new Error('down');
      });
      for (let i = 0; i < 5; i++) outage.report(log, withCode('ECONNREFUSED'));
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(outage.ongoing).toBe(true);
      await vi.advanceTimersByTimeAsync(3000);
      expect(log.info).not.toHaveBeenCalled();
      reachable = true;
      await vi.advanceTimersByTimeAsync(1000);
      expect(log.info).toHaveBeenCalledTimes(1);
      expect(log.info.mock.calls[0]?.[0]).toMatchObject({ refusedRequests: 5 });
      expect(outage.ongoing).toBe(false);

      outage.report(log, withCode('ECONNREFUSED'));
      expect(log.error).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
