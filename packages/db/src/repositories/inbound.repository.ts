import type { BadgeRepository, InboundPipeline, SourceWebhookRepository } from '@ci/application';
import type { BlockedState, BuildState } from '@ci/domain';
import { prefixedColumns } from '../rows';
import type { Sql } from '../sql';
import { organizationFromRow, PIPELINE_CREATOR_COLUMNS, pipelineCreatorFromRow } from './identity.repository';
import { PIPELINE_COLUMNS, pipelineFromRow } from './pipeline.repository';

type Row = Record<string, unknown>;

const ORGANIZATION_COLUMNS = prefixedColumns('o', [
  'id',
  'slug',
  'name',
  'created_at',
  'allowed_api_ip_addresses',
  'members_require_two_factor_authentication',
]);

/**
 * A pipeline `p` with its organization `o` and creator `pu`, as a secret of the pipeline's finds it;
 * `leading` names the finder's own columns, read first.
 */
export function inboundSelect(leading: string): string {
  return `select ${leading}, ${ORGANIZATION_COLUMNS}, ${PIPELINE_COLUMNS}, ${PIPELINE_CREATOR_COLUMNS}
  from pipelines p join organizations o on o.id = p.organization_id left join users pu on pu.id = p.created_by_id`;
}

export function inboundFromRow(row: Row): InboundPipeline {
  return {
    organization: organizationFromRow(row, 'o_'),
    pipeline: pipelineFromRow(row),
    pipelineCreator: pipelineCreatorFromRow(row),
  };
}

export function sourceWebhookRepository(sql: Sql): SourceWebhookRepository {
  return {
    async findByToken(token) {
      const [row] = await sql.query(
        `${inboundSelect('p.webhook_secret')}
        where p.webhook_token = $1`,
        [token],
      );
      return row ? { ...inboundFromRow(row), secret: (row.webhook_secret as string | null) ?? null } : null;
    },
    async setToken(pipelineId, token) {
      const rows = await sql.query('update pipelines set webhook_token = $2 where id = $1 returning id', [
        pipelineId,
        token,
      ]);
      return rows.length > 0;
    },
    async setSecret(pipelineId, secret) {
      const rows = await sql.query('update pipelines set webhook_secret = $2 where id = $1 returning id', [
        pipelineId,
        secret,
      ]);
      return rows.length > 0;
    },
    async buildsOnBranch({ pipelineId, branch, states, exceptId }) {
      const rows = await sql.query<{ id: string }>(
        `select id from builds where pipeline_id = $1 and branch = $2 and state = any($3::text[]) and id <> $4
         order by created_at, number`,
        [pipelineId, branch, states, exceptId],
      );
      return rows.map((row) => row.id);
    },
  };
}

export function badgeRepository(sql: Sql): BadgeRepository {
  return {
    async findPipeline(pipelineId) {
      const [row] = await sql.query(
        `select ${PIPELINE_COLUMNS}, o.slug as o_slug from pipelines p
         join organizations o on o.id = p.organization_id where p.id = $1`,
        [pipelineId],
      );
      return row ? { pipeline: pipelineFromRow(row), organizationSlug: row.o_slug as string } : null;
    },
    async latestBuild(pipelineId, branch) {
      const [row] = await sql.query(
        `select id, state, blocked_state from builds where pipeline_id = $1 and branch = $2
         order by created_at desc, number desc limit 1`,
        [pipelineId, branch],
      );
      return row
        ? {
            id: row.id as string,
            state: row.state as BuildState,
            blockedState: (row.blocked_state as BlockedState | null) ?? null,
          }
        : null;
    },
  };
}
