import { webAddresses } from '@ci/domain';
import type { PublicUrls } from '../trpc';

/**
 * A pipeline's addresses, built on the configured public URLs, shared by the pipeline's own wire form and
 * the pipeline embedded in builds. The webhook and badge URLs carry the pipeline's secret token.
 */

export function pipelineApiUrl(
  urls: Pick<PublicUrls, 'api'>,
  organizationSlug: string,
  slug: string,
): string {
  return `${urls.api}/v2/organizations/${organizationSlug}/pipelines/${slug}`;
}

export function pipelineWebUrl(
  urls: Pick<PublicUrls, 'web'>,
  organizationSlug: string,
  slug: string,
): string {
  return webAddresses.pipeline(urls.web, organizationSlug, slug);
}

export function pipelineWebhookUrl(urls: Pick<PublicUrls, 'web'>, webhookToken: string): string {
  return webAddresses.webhook(urls.web, webhookToken);
}

export function pipelineBadgeUrl(urls: Pick<PublicUrls, 'api'>, webhookToken: string): string {
  return webAddresses.badge(urls.api, webhookToken);
}
