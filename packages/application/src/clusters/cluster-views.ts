import type { ClusterQueueRecord, ClusterRecord, ClusterTokenRecord } from '../ports';

/** A cluster with the organization slug its addresses are built from. */
export interface ClusterView extends ClusterRecord {
  organizationSlug: string;
}

export interface ClusterQueueView extends ClusterQueueRecord {
  organizationSlug: string;
}

/** A token; `secret` only in the answer of its creation, the one time it is shown. */
export interface ClusterTokenView extends ClusterTokenRecord {
  organizationSlug: string;
  secret?: string;
}

/** A cluster as REST paths name it: organization slug and cluster UUID. */
export interface ClusterRef {
  organization: string;
  cluster: string;
}

export interface ClusterQueueRef extends ClusterRef {
  queue: string;
}

export interface ClusterTokenRef extends ClusterRef {
  token: string;
}

export interface ClusterPage<T> {
  items: T[];
  /** every item of the list, on all pages */
  totalCount: number;
}
