import { describe, expect, it } from 'vitest';
import { readServerConfig } from './config';

describe('readServerConfig', () => {
  it('defaults to 127.0.0.1:3000 with public URLs derived from them', () => {
    const config = readServerConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrls).toEqual({ api: 'http://127.0.0.1:3000', web: 'http://127.0.0.1:3000' });
    expect(config.seedDemo).toBe(true);
    expect(config.database.url).toBeUndefined();
    expect(config.database.dataDir).toMatch(/\.data$/);
  });

  it('takes explicit public URLs without their trailing slash', () => {
    const config = readServerConfig({
      PUBLIC_API_URL: 'https://api.example.com/',
      PUBLIC_WEB_URL: 'https://ci.example.com',
    });
    expect(config.publicUrls).toEqual({ api: 'https://api.example.com', web: 'https://ci.example.com' });
  });

  it('refuses invalid values with a message naming them', () => {
    expect(() => readServerConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readServerConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => readServerConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
  });

  it('switches the demo seed off with SEED_DEMO=false', () => {
    expect(readServerConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });
});
