import type { Operation } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';

/**
 * The revision of what `actor` may see of a pipeline and its builds (ADR 0012): two reads give the same
 * revision only when every answer about them would be the same for this token. It is the pipeline's
 * content revision (its row, builds, jobs, counts and the catalog beside them, read with the access), the
 * access the actor has, and the token (which names the user, its scopes and organizations).
 *
 * Authorizes as `operation` reading the pipeline; with the access read ahead (ADR 0007) it costs no
 * statement. Read it before anything the answer shows, so that an answer is never older than its revision.
 * Null when the content revision was not read with the access (`PipelineSlugs.contentRevision`).
 */
export const pipelineRevision =
  (deps: Deps) =>
  async (
    actor: Actor,
    ref: { organization: string; pipeline: string },
    operation: Operation,
  ): Promise<string | null> => {
    const authorized = await requirePipeline(deps)(actor, operation, ref, 'read');
    // Not read (no read-ahead asked for it): no revision, so no answer may be kept or sent again.
    if (authorized.contentRevision === null) return null;
    return `${authorized.contentRevision} ${authorized.access} ${actor.tokenId} ${actor.scopes.join(',')}`;
  };
