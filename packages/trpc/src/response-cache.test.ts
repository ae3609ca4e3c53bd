import { describe, expect, it } from 'vitest';
import { entityTag, matchesNoneMatch, ResponseCache } from './response-cache';

const body = (text: string) => Buffer.from(text);

describe('ResponseCache', () => {
  it('gives a response back only for the revision it was made at', () => {
    const cache = new ResponseCache(1024);
    cache.set('GET /a', { revision: '1', headers: {}, body: body('one') });
    expect(cache.get('GET /a', '1')?.body.toString()).toBe('one');
    expect(cache.get('GET /a', '2')).toBeUndefined();
    expect(cache.get('GET /b', '1')).toBeUndefined();
  });

  it('keeps its bytes within the budget, the least recently used going first', () => {
    const cache = new ResponseCache(100);
    cache.set('a', { revision: '1', headers: {}, body: body('x'.repeat(40)) });
    cache.set('b', { revision: '1', headers: {}, body: body('x'.repeat(40)) });
    cache.get('a', '1');
    cache.set('c', { revision: '1', headers: {}, body: body('x'.repeat(40)) });
    expect(cache.get('a', '1')).toBeDefined();
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(100);
  });

  it('does not keep a response larger than the whole budget', () => {
    const cache = new ResponseCache(10);
    cache.set('a', { revision: '1', headers: {}, body: body('x'.repeat(40)) });
    expect(cache.size.entries).toBe(0);
  });
});

describe('entity tags', () => {
  it('differ by revision and by request, and are quoted', () => {
    const tag = entityTag('1 admin', 'GET /x');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(entityTag('1 admin', 'GET /x')).toBe(tag);
    expect(entityTag('2 admin', 'GET /x')).not.toBe(tag);
    expect(entityTag('1 admin', 'GET /x?page=2')).not.toBe(tag);
  });

  it('match If-None-Match lists, weak tags and *', () => {
    const tag = entityTag('1', 'GET /x');
    expect(matchesNoneMatch(tag, tag)).toBe(true);
    expect(matchesNoneMatch(`"other", W/${tag}`, tag)).toBe(true);
    expect(matchesNoneMatch('*', tag)).toBe(true);
    expect(matchesNoneMatch('"other"', tag)).toBe(false);
    expect(matchesNoneMatch(undefined, tag)).toBe(false);
  });
});
