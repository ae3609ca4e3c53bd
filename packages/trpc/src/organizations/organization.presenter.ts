import type { OrganizationMember } from '@ci/application';
import { encodeGraphqlId, formatTimestamp, type Organization, webAddresses } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { OrganizationMemberWire, OrganizationWire } from './organization.wire';

/** The wire form of an organization (REST and tRPC), its addresses on the configured public URLs. */
export function presentOrganization(organization: Organization, urls: PublicUrls): OrganizationWire {
  const url = apiAddresses.organization(urls.api, organization.slug);
  return {
    id: organization.id,
    graphql_id: encodeGraphqlId('Organization', organization.id),
    url,
    web_url: webAddresses.organization(urls.web, organization.slug),
    name: organization.name,
    slug: organization.slug,
    pipelines_url: `${url}/pipelines`,
    agents_url: `${url}/agents`,
    emojis_url: `${url}/emojis`,
    created_at: formatTimestamp(organization.createdAt),
  };
}

export function presentOrganizations(
  organizations: readonly Organization[],
  urls: PublicUrls,
): OrganizationWire[] {
  return organizations.map((organization) => presentOrganization(organization, urls));
}

/** The public API shows a member as the user's id, name and email: not the role, not when they joined. */
export function presentOrganizationMember({ user }: OrganizationMember): OrganizationMemberWire {
  return { id: user.id, name: user.name, email: user.email };
}
