import { describe, expect, it } from 'vitest';
import { isApiPath } from './api-path';

describe('isApiPath', () => {
  it.each([
    '/v2',
    '/v2/',
    '/v2?page=2',
    '/v2/organizations/acme/builds?page=2',
    '/trpc',
    '/trpc/builds.list?input=%7B%7D',
    '/graphql',
    '/graphql/',
    '/graphql?query=%7Bviewer%7D',
  ])('takes %s for an API path', (url) => {
    expect(isApiPath(url)).toBe(true);
  });

  it.each(['/', '/healthz', '/v20', '/v2x/builds', '/v3/builds', '/graphqls', '/trpc-ui', '/docs/v2/'])(
    'leaves %s outside the API',
    (url) => {
      expect(isApiPath(url)).toBe(false);
    },
  );
});
