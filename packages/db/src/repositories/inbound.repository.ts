import type {
  BadgeRepository,
  InboundPipeline,
  PipelineTriggerRepository,
  SourceWebhookRepository,
} from '@ci/application';
import type { BlockedState, BuildState, PipelineTrigger } from '@ci/domain';
import { prefixedColumns, toDate } from '../rows';
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

/** A pipeline `p` with its organization `o` and creator `pu`, as a secret of the pipeline's finds it. */
export const INBOUND_SELECT = `select ${ORGANIZATION_COLUMNS}, ${PIPELINE_COLUMNS}, ${PIPELINE_CREATOR_COLUMNS}
  from pipelines p join organizations o on o.id = p.organization_id left join users pu on pu.id = p.created_by_id`;

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
        `${INBOUND_SELECT.replace('select ', 'select p.webhook_secret, ')}
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

const TRIGGER_COLUMN_NAMES = [
  'id',
  'pipeline_id',
  'label',
  'enabled',
  'token_hash',
  'branch',
  'commit',
  'message',
  'created_by_id',
  'created_at',
] as const;
const TRIGGER_COLUMNS = prefixedColumns('t', TRIGGER_COLUMN_NAMES);

function triggerFromRow(row: Row): PipelineTrigger {
  return {
    id: row.t_id as string,
    pipelineId: row.t_pipeline_id as string,
    label: row.t_label as string,
    enabled: row.t_enabled as boolean,
    tokenHash: row.t_token_hash as string,
    branch: (row.t_branch as string | null) ?? null,
    commit: (row.t_commit as string | null) ?? null,
    message: (row.t_message as string | null) ?? null,
    createdById: (row.t_created_by_id as string | null) ?? null,
    createdAt: toDate(row.t_created_at),
  };
}

export function pipelineTriggerRepository(sql: Sql): PipelineTriggerRepository {
  return {
    async list(pipelineId) {
      const rows = await sql.query(
        `select ${TRIGGER_COLUMNS} from pipeline_triggers t where t.pipeline_id = $1 order by t.created_at, t.id`,
        [pipelineId],
      );
      return rows.map(triggerFromRow);
    },
    async find(pipelineId, id) {
      const [row] = await sql.query(
        `select ${TRIGGER_COLUMNS} from pipeline_triggers t where t.pipeline_id = $1 and t.id = $2`,
        [pipelineId, id],
      );
      return row ? triggerFromRow(row) : null;
    },
    async insert(trigger) {
      await sql.query(
        `insert into pipeline_triggers (${TRIGGER_COLUMN_NAMES.join(', ')})
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          trigger.id,
          trigger.pipelineId,
          trigger.label,
          trigger.enabled,
          trigger.tokenHash,
          trigger.branch,
          trigger.commit,
          trigger.message,
          trigger.createdById,
          trigger.createdAt,
        ],
      );
    },
    async update({ pipelineId, id, changes }) {
      // Each column keeps its value unless the change names it (a named null clears it).
      const named = (key: keyof typeof changes) => key in changes;
      const [row] = await sql.query(
        `update pipeline_triggers t set
           label = case when $3::boolean then $4::text else t.label end,
           enabled = case when $5::boolean then $6::boolean else t.enabled end,
           branch = case when $7::boolean then $8::text else t.branch end,
           commit = case when $9::boolean then $10::text else t.commit end,
           message = case when $11::boolean then $12::text else t.message end
         where t.pipeline_id = $1 and t.id = $2 returning ${TRIGGER_COLUMNS}`,
        [
          pipelineId,
          id,
          named('label'),
          changes.label ?? null,
          named('enabled'),
          changes.enabled ?? null,
          named('branch'),
          changes.branch ?? null,
          named('commit'),
          changes.commit ?? null,
          named('message'),
          changes.message ?? null,
        ],
      );
      return row ? triggerFromRow(row) : null;
    },
    async delete(pipelineId, id) {
      const rows = await sql.query(
        'delete from pipeline_triggers where pipeline_id = $1 and id = $2 returning id',
        [pipelineId, id],
      );
      return rows.length > 0;
    },
    async findByTokenHash(hash) {
      const [row] = await sql.query(
        `${INBOUND_SELECT.replace('select ', `select ${TRIGGER_COLUMNS}, `)}
         join pipeline_triggers t on t.pipeline_id = p.id where t.token_hash = $1`,
        [hash],
      );
      return row ? { ...inboundFromRow(row), trigger: triggerFromRow(row) } : null;
    },
  };
}
