import { describe, expect, it } from 'vitest';
import { webAddresses } from './web-addresses';

const WEB = 'https://ci.test';
const API = 'https://api.ci.test';

describe('webAddresses', () => {
  it.each([
    ['organization', webAddresses.organization(WEB, 'acme'), 'https://ci.test/acme'],
    ['pipeline', webAddresses.pipeline(WEB, 'acme', 'web'), 'https://ci.test/acme/web'],
    ['build', webAddresses.build(WEB, 'acme', 'web', 7), 'https://ci.test/acme/web/builds/7'],
    [
      'job',
      webAddresses.job('https://ci.test/acme/web/builds/7', 'j-1'),
      'https://ci.test/acme/web/builds/7#j-1',
    ],
    ['agent', webAddresses.agent(WEB, 'acme', 'a-1'), 'https://ci.test/organizations/acme/agents/a-1'],
    [
      'registry',
      webAddresses.registry(WEB, 'acme', 'gems'),
      'https://ci.test/organizations/acme/packages/registries/gems',
    ],
    ['webhook', webAddresses.webhook(API, 'tok'), 'https://api.ci.test/webhooks/deliver/tok'],
    ['deleted webhook', webAddresses.webhook(API, null), ''],
    ['badge', webAddresses.badge(API, 'p-1'), 'https://api.ci.test/badges/p-1.svg'],
  ])("builds the %s address in the examples' pattern", (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });
});
