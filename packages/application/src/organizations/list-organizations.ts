import type { Organization } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';

export interface OrganizationPage {
  items: Organization[];
  /** every organization the list covers, on all pages */
  totalCount: number;
}

/** Code-unit order, so the order does not depend on the database's collation. */
const bySlug = (a: Organization, b: Organization) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/**
 * The organizations the token may use: the user's memberships, narrowed to the token's organizations
 * when it names some. Ordered by slug (unique and never changed), so pages stay put. A user belongs
 * to few organizations: they are read at once and paged here, by the same rule every other operation
 * applies (`usableMemberships`).
 */
export const listOrganizations =
  (deps: Deps) =>
  async (actor: Actor, page: Page | RowWindow): Promise<OrganizationPage> => {
    requireScope(actor, 'listOrganizations');
    const usable = [...(await usableMemberships(deps, actor)).values()]
      .map((membership) => membership.organization)
      .sort(bySlug);
    const { offset, limit } = pageWindow(page);
    return { items: usable.slice(offset, offset + limit), totalCount: usable.length };
  };
