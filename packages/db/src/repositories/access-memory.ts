import type { PipelineAccessFacts } from '@ci/application';
import type { AccessToken, Pipeline, User } from '@ci/domain';
import { frozenMemory } from './frozen-memory';

/**
 * What a token may do on a pipeline as this process read it (ADR 0013): the token and its user, and the
 * access facts, with the two revisions they were read at in the same snapshot. They hold while neither
 * revision has moved: the catalog revision moves with any change to tokens, users, organizations,
 * memberships and teams' members and pipelines (Migration20261125150000), the pipeline's with its row.
 */
export interface RememberedAccess {
  /** `catalog_revision.revision` (a bigint, as pg reads it: text) */
  catalogRevision: string;
  /** `pipelines.revision` of `facts.pipeline` */
  pipelineRevision: string;
  token: AccessToken;
  user: User;
  /** Without the content revision, which is read with every request. */
  facts: Omit<PipelineAccessFacts, 'contentRevision'> & { pipeline: Pipeline };
}

/**
 * The accesses this process read, by token hash and the slugs of the organization and pipeline, frozen
 * (every request that recalls one shares it). Only accesses to a pipeline that exists are remembered: any
 * other answer is read afresh each time. Bounded: past `capacity` the longest remembered is forgotten.
 */
export interface AccessMemory {
  recall(tokenHash: string, organizationSlug: string, pipelineSlug: string): RememberedAccess | undefined;
  remember(
    tokenHash: string,
    organizationSlug: string,
    pipelineSlug: string,
    remembered: RememberedAccess,
  ): void;
  forget(tokenHash: string, organizationSlug: string, pipelineSlug: string): void;
}

export function accessMemory(capacity = 1000): AccessMemory {
  const byKey = frozenMemory<RememberedAccess>(capacity);
  // The hash's and the first slug's lengths first: no two triples make one key.
  const key = (tokenHash: string, organizationSlug: string, pipelineSlug: string) =>
    `${tokenHash.length}:${tokenHash}${organizationSlug.length}:${organizationSlug}/${pipelineSlug}`;
  return {
    recall: (tokenHash, organizationSlug, pipelineSlug) =>
      byKey.get(key(tokenHash, organizationSlug, pipelineSlug)),
    remember: (tokenHash, organizationSlug, pipelineSlug, remembered) =>
      byKey.set(key(tokenHash, organizationSlug, pipelineSlug), remembered),
    forget: (tokenHash, organizationSlug, pipelineSlug) =>
      byKey.delete(key(tokenHash, organizationSlug, pipelineSlug)),
  };
}
