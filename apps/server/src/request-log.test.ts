import { describe, expect, it } from 'vitest';
import { loggedUrl } from './request-log';

describe('loggedUrl', () => {
  it.each([
    ['/v2/user?access_token=bkua_secret', '/v2/user?access_token=[redacted]'],
    [
      '/v2/user?page=2&access_token=bkua_secret&per_page=3',
      '/v2/user?page=2&access_token=[redacted]&per_page=3',
    ],
    ['/v2/user?ACCESS_TOKEN=bkua_secret#x', '/v2/user?ACCESS_TOKEN=[redacted]#x'],
    ['/graphql?token=abc&api_key=def', '/graphql?token=[redacted]&api_key=[redacted]'],
    ['/v2/user?my_access_token=kept', '/v2/user?my_access_token=kept'],
    ['/v2/organizations/acme/builds', '/v2/organizations/acme/builds'],
  ])('writes %s as %s', (url, logged) => {
    expect(loggedUrl(url)).toBe(logged);
  });
});
