import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, OrganizationMember } from '../ports';

export interface OrganizationMemberPage {
  items: OrganizationMember[];
  /** every member of the organization, on all pages */
  totalCount: number;
}

/**
 * An organization's members, longest-standing first. Every member (admin or not) may list them;
 * anyone else, and a token not allowed the organization, gets 404 `No organization found`.
 */
export const listOrganizationMembers =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, page: Page | RowWindow): Promise<OrganizationMemberPage> => {
    const { organization } = await requireOrganization(deps)(
      actor,
      'listOrganizationMembers',
      organizationSlug,
    );
    const [items, totalCount] = await Promise.all([
      deps.repos.organizationMembers.list({ organizationId: organization.id, ...pageWindow(page) }),
      deps.repos.organizationMembers.count(organization.id),
    ]);
    return { items, totalCount };
  };
