import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RegistryView } from '@ci/application';
import type { Registry } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { presentRegistries, presentRegistry } from './registry.presenter';
import { RegistryWire } from './registry.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const example = (file: string): Json => {
  const body: unknown = JSON.parse(readFileSync(`${EXAMPLES}/${file}`, 'utf8'));
  return (Array.isArray(body) ? body[0] : body) as Json;
};

const URLS = { api: 'https://api.ci.test', web: 'https://ci.test' };
// The id of the public examples, so graphql_id can be compared with theirs.
const ID = '0191df84-85e4-77aa-83ba-6579084728eb';

const registry: Registry = {
  id: ID,
  organizationId: '0190f3a0-2222-7abc-8def-0123456789ab',
  slug: 'my-registry',
  name: 'my registry',
  ecosystem: 'ruby',
  description: 'registry containing ruby gems',
  emoji: null,
  color: null,
  public: false,
  oidcPolicy: null,
  createdAt: new Date('2026-11-21T10:04:05.123Z'),
};
const view: RegistryView = { registry, organizationSlug: 'my-org' };

describe('presentRegistry', () => {
  it.each([
    'registries-get.json',
    'registries-create.json',
    'registries-update.json',
    'registries-list.json',
  ])('has the keys of %s, in its order', (file) => {
    expect(Object.keys(presentRegistry(view, URLS))).toEqual(Object.keys(example(file)));
  });

  it('matches the example values that do not depend on our URLs or teams', () => {
    const omit = ({ url: _url, web_url: _webUrl, team_ids: _teamIds, ...rest }: Json) => rest;
    expect(omit(presentRegistry(view, URLS))).toEqual(omit(example('registries-get.json')));
  });

  it('encodes graphql_id as base64 of Registry---<id>, as the example does', () => {
    const { graphql_id } = presentRegistry(view, URLS);
    expect(Buffer.from(graphql_id, 'base64').toString('utf8')).toBe(`Registry---${ID}`);
    expect(graphql_id).toBe(example('registries-get.json').graphql_id);
  });

  it('builds url on the API URL as the examples do, and web_url as the list example does', () => {
    const presented = presentRegistry(view, URLS);
    expect(presented.url).toBe('https://api.ci.test/v2/packages/organizations/my-org/registries/my-registry');
    expect(presented.web_url).toBe('https://ci.test/organizations/my-org/packages/registries/my-registry');
    const swap = (text: unknown) =>
      String(text).replace('https://api.buildkite.com', URLS.api).replace('https://buildkite.com', URLS.web);
    expect(presented.url).toBe(swap(example('registries-get.json').url));
    expect(presented.web_url).toBe(swap(example('registries-list.json').web_url));
  });

  it('shows a registry without description with null, emoji, color and oidc_policy null, public false', () => {
    const presented = presentRegistry({ ...view, registry: { ...registry, description: null } }, URLS);
    expect(presented).toMatchObject({
      description: null,
      emoji: null,
      color: null,
      public: false,
      oidc_policy: null,
      team_ids: [],
    });
  });

  it('gives what the wire schema accepts', () => {
    expect(RegistryWire.parse(presentRegistry(view, URLS))).toEqual(presentRegistry(view, URLS));
  });
});

describe('presentRegistries', () => {
  it('keeps the order it is given', () => {
    const other: RegistryView = {
      registry: { ...registry, id: '0191df84-85e4-77aa-83ba-000000000000', slug: 'other', name: 'other' },
      organizationSlug: 'my-org',
    };
    expect(presentRegistries([view, other], URLS).map((r) => r.slug)).toEqual(['my-registry', 'other']);
  });
});
