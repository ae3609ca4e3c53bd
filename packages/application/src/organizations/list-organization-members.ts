import { parseListFilterText } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, OrganizationMember } from '../ports';

export interface OrganizationMemberPage {
  items: OrganizationMember[];
  /** every member of the organization, on all pages */
  totalCount: number;
}

/** GraphQL's filters: `email` (the user's, any case), `search` (a part of the name or email, any case). */
export interface OrganizationMemberQuery {
  email?: string | null | undefined;
  search?: string | null | undefined;
}

/**
 * An organization's members, longest-standing first. Every member (admin or not) may list them;
 * anyone else, and a token not allowed the organization, gets 404 `No organization found`.
 */
export const listOrganizationMembers =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    page: Page | RowWindow,
    query: OrganizationMemberQuery = {},
  ): Promise<OrganizationMemberPage> => {
    const { organization } = await requireOrganization(deps)(
      actor,
      'listOrganizationMembers',
      organizationSlug,
    );
    const email = parseListFilterText('email', query.email);
    if (!email.ok) throw email.error;
    const search = parseListFilterText('search', query.search);
    if (!search.ok) throw search.error;
    const scope = { organizationId: organization.id, email: email.value, search: search.value };
    const [items, totalCount] = await Promise.all([
      deps.repos.organizationMembers.list({ ...scope, ...pageWindow(page) }),
      deps.repos.organizationMembers.count(scope),
    ]);
    return { items, totalCount };
  };
