import type { RegistryView } from '@ci/application';
import { encodeGraphqlId, webAddresses } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { RegistryWire } from './registry.wire';

/**
 * The wire form of a registry (REST and tRPC). `url` follows the examples on the configured API URL;
 * `web_url` takes the list example's `…/organizations/{org}/packages/registries/{slug}` for every
 * response, the address of a registry in the web interface (docs/compatibility.md).
 */
export function presentRegistry(
  { registry, organizationSlug }: RegistryView,
  urls: PublicUrls,
): RegistryWire {
  return {
    id: registry.id,
    graphql_id: encodeGraphqlId('Registry', registry.id),
    slug: registry.slug,
    url: apiAddresses.registry(urls.api, organizationSlug, registry.slug),
    web_url: webAddresses.registry(urls.web, organizationSlug, registry.slug),
    name: registry.name,
    ecosystem: registry.ecosystem,
    description: registry.description,
    emoji: registry.emoji,
    color: registry.color,
    public: registry.public,
    oidc_policy: registry.oidcPolicy,
    team_ids: [],
  };
}

export function presentRegistries(views: readonly RegistryView[], urls: PublicUrls): RegistryWire[] {
  return views.map((view) => presentRegistry(view, urls));
}
