import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OrganizationMember } from '@ci/application';
import { ORGANIZATION_SETTINGS_DEFAULTS, type Organization } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import {
  presentOrganization,
  presentOrganizationMember,
  presentOrganizations,
} from './organization.presenter';
import { OrganizationMemberWire, OrganizationWire } from './organization.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const example = JSON.parse(readFileSync(`${EXAMPLES}/organizations-get.json`, 'utf8')) as Json;

const URLS = { api: 'https://api.ci.test', web: 'https://ci.test' };
const organization: Organization = {
  id: example.id as string,
  slug: example.slug as string,
  name: example.name as string,
  createdAt: new Date(example.created_at as string),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};
const swap = (text: unknown) =>
  String(text).replace('https://api.buildkite.com', URLS.api).replace('https://buildkite.com', URLS.web);

describe('presentOrganization', () => {
  it('has the keys of organizations-get.json, in its order', () => {
    expect(Object.keys(presentOrganization(organization, URLS))).toEqual(Object.keys(example));
  });

  it("matches the example's values, with its addresses on our public URLs", () => {
    const presented = presentOrganization(organization, URLS);
    const { graphql_id: _ours, ...rest } = presented;
    const { graphql_id: _theirs, ...expected } = example;
    expect(rest).toEqual(
      Object.fromEntries(
        Object.entries(expected).map(([key, value]) => [key, key.endsWith('url') ? swap(value) : value]),
      ),
    );
    expect(presented.url).toBe('https://api.ci.test/v2/organizations/my-great-org');
    expect(presented.web_url).toBe('https://ci.test/my-great-org');
  });

  it('encodes graphql_id as base64 of Organization---<id>, as the example does for its own id', () => {
    expect(Buffer.from(presentOrganization(organization, URLS).graphql_id, 'base64').toString()).toBe(
      `Organization---${organization.id}`,
    );
    // The example's graphql_id names another id than its `id`; encoding that id gives the example's.
    const exampleId = Buffer.from(example.graphql_id as string, 'base64')
      .toString()
      .split('---')[1]!;
    expect(presentOrganization({ ...organization, id: exampleId }, URLS).graphql_id).toBe(example.graphql_id);
  });

  it('gives what the wire schema accepts, and keeps the order of a list', () => {
    const presented = presentOrganization(organization, URLS);
    expect(OrganizationWire.parse(presented)).toEqual(presented);
    const other = { ...organization, id: '0191df84-85e4-77aa-83ba-000000000000', slug: 'b' };
    expect(presentOrganizations([other, organization], URLS).map((o) => o.slug)).toEqual([
      'b',
      'my-great-org',
    ]);
  });
});

describe('presentOrganizationMember', () => {
  const member: OrganizationMember = {
    id: '0185c636-fcbf-4a6c-b49d-000000000001',
    organizationId: '0185c636-fcbf-4a6c-b49d-000000000002',
    user: {
      id: '0185c636-fcbf-4a6c-b49d-c4048e7b8aea',
      name: 'Scout Finch',
      email: 'scout@example.com',
      avatarUrl: 'https://avatars.example.com/scout.png',
      createdAt: new Date(0),
    },
    role: 'admin',
    createdAt: new Date(0),
  };

  it("is the public API's member: the user's id, name and email, and nothing else", () => {
    const presented = presentOrganizationMember(member);
    expect(presented).toEqual({
      id: '0185c636-fcbf-4a6c-b49d-c4048e7b8aea',
      name: 'Scout Finch',
      email: 'scout@example.com',
    });
    expect(Object.keys(presented)).toEqual(['id', 'name', 'email']);
    expect(OrganizationMemberWire.parse(presented)).toEqual(presented);
  });
});
