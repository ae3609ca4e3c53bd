import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';
import type { RegistryView } from './registry-view';

export interface RegistryPage {
  items: RegistryView[];
  /** every registry of the organization, on all pages */
  totalCount: number;
}

/** An organization's registries, oldest first, so pages stay put while registries are renamed. */
export const listRegistries =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, page: Page | RowWindow): Promise<RegistryPage> => {
    const { organization } = await requireOrganization(deps)(actor, 'listRegistries', organizationSlug);
    const [registries, totalCount] = await Promise.all([
      deps.repos.registries.list({
        organizationId: organization.id,
        ...pageWindow(page),
      }),
      deps.repos.registries.count(organization.id),
    ]);
    return {
      items: registries.map((registry) => ({ registry, organizationSlug: organization.slug })),
      totalCount,
    };
  };
