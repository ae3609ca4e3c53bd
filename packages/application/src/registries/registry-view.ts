import type { Registry } from '@ci/domain';

/** A registry with the organization slug its addresses are built from. */
export interface RegistryView {
  registry: Registry;
  organizationSlug: string;
}

/** A registry as REST paths name it: organization slug and registry slug. */
export interface RegistryRef {
  organization: string;
  registry: string;
}
