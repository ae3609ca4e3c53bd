import { parsePipelineListFilter } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';
import { type PipelineResult, pipelineSeenWith } from './pipeline-result';

export interface PipelinePage {
  pipelines: PipelineResult[];
  /** every pipeline the list covers, on all pages */
  totalCount: number;
}

/** The list filters as clients send them (`?name=`, `?repository=`): parts of each, any case. */
export interface PipelineListQuery {
  name?: string | undefined;
  repository?: string | undefined;
  /** GraphQL's filter: archived pipelines only (true) or unarchived ones only (false) */
  archived?: boolean | undefined;
}

/**
 * An organization's pipelines, oldest first, so that pages stay put while pipelines are renamed. An admin
 * sees every one; a member those the domain's access rule lets them see (a team of theirs has it, or it
 * belongs to no team), each with the webhook URL only where they may edit (rule B2).
 */
export const listPipelines =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    query: PipelineListQuery,
    page: Page | RowWindow,
  ): Promise<PipelinePage> => {
    const membership = await requireOrganization(deps)(actor, 'listPipelines', organizationSlug);
    const filter = parsePipelineListFilter(query);
    if (!filter.ok) throw filter.error;
    const memberAccess =
      membership.role === 'admin' ? null : await memberPipelineAccess(deps, actor.user.id, [membership]);
    const scope = {
      organizationId: membership.organization.id,
      visiblePipelineIds: memberAccess ? [...memberAccess.keys()] : null,
      filter: filter.value,
    };
    // The page and the count are independent reads: side by side, not one after the other.
    const [records, totalCount] = await Promise.all([
      deps.repos.pipelines.list({ ...scope, ...pageWindow(page) }),
      deps.repos.pipelines.count(scope),
    ]);
    return {
      pipelines: records.map((record) =>
        pipelineSeenWith(
          memberAccess ? (memberAccess.get(record.pipeline.id) ?? 'none') : 'admin',
          record,
          membership.organization.slug,
        ),
      ),
      totalCount,
    };
  };
