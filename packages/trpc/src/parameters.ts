import { z } from 'zod';

/** Parameters several routers share, described once for the OpenAPI document. */

export const organizationSlug = z.string().meta({ description: 'organization slug' });

/** `page` and `per_page` of every list (read from the raw query on REST; see pagination.ts). */
export const pageParameters = {
  page: z.int().optional().meta({ description: 'page number, from 1' }),
  per_page: z.int().optional().meta({ description: 'page size, default 30, at most 100' }),
};
