import type { AgentRegistrationToken, AgentRepository } from '@ci/application';
import { ACTIVE_JOB_STATES, type Agent, type AgentListFilter } from '@ci/domain';
import { prefixedColumns, prefixedObject, toDate, toDateOrNull } from '../rows';
import { likeLiteral, type Sql } from '../sql';

type Row = Record<string, unknown>;

/** An agent from its row; `prefix` names the columns of an agent joined to another table (`a_`). */
export function agentFromRow(row: Row, prefix = ''): Agent {
  const column = (name: string) => row[`${prefix}${name}`];
  return {
    id: column('id') as string,
    organizationId: column('organization_id') as string,
    name: column('name') as string,
    hostname: (column('hostname') as string | null) ?? null,
    ipAddress: (column('ip_address') as string | null) ?? null,
    userAgent: (column('user_agent') as string | null) ?? null,
    connectionState: column('connection_state') as string,
    tags: column('tags') as string[],
    creatorId: (column('creator_id') as string | null) ?? null,
    createdAt: toDate(column('created_at')),
    version: (column('version') as string | null) ?? null,
    pid: (column('pid') as string | null) ?? null,
    connectedAt: toDateOrNull(column('connected_at')),
    disconnectedAt: toDateOrNull(column('disconnected_at')),
    heartbeatAt: toDateOrNull(column('heartbeat_at')),
  };
}

/** The columns `agentFromRow` reads. */
const AGENT_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'hostname',
  'ip_address',
  'user_agent',
  'connection_state',
  'tags',
  'creator_id',
  'created_at',
  'version',
  'pid',
  'connected_at',
  'disconnected_at',
  'heartbeat_at',
] as const;

/** The columns `agentFromRow` reads, of agents `a`, each named `a_<column>`. */
export const AGENT_COLUMNS_PREFIXED = prefixedColumns('a', AGENT_COLUMNS);

/** The same as one JSON object of the same names. */
export const AGENT_OBJECT = prefixedObject('a', AGENT_COLUMNS);

/** States of a job an agent holds, as the partial unique index `jobs_one_active_per_agent_idx` names them. */
export const HELD_JOB_STATES = `(${ACTIVE_JOB_STATES.map((state) => `'${state}'`).join(', ')})`;

/** The where clause of an organization's agents narrowed by `filter` (agents `a`). */
function listScope(input: { organizationId: string; filter: AgentListFilter }, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`a.organization_id = ${param(input.organizationId)}`];
  const { search, metaData, isRunningJob } = input.filter;
  if (search !== null) {
    const pattern = param(`%${likeLiteral(search)}%`);
    conditions.push(
      `(a.name ilike ${pattern} or exists (select 1 from unnest(a.tags) t where t ilike ${pattern}))`,
    );
  }
  if (metaData.length) conditions.push(`a.tags @> ${param(metaData)}::text[]`);
  if (isRunningJob !== null) {
    conditions.push(
      `${isRunningJob ? '' : 'not '}exists (select 1 from jobs h where h.agent_id = a.id and h.state in ${HELD_JOB_STATES})`,
    );
  }
  return conditions.join(' and ');
}

export function agentRepository(sql: Sql): AgentRepository {
  return {
    async insertRegistrationToken(token) {
      await sql.query(
        `insert into agent_registration_tokens (id, organization_id, token_hash, description, created_at)
         values ($1, $2, $3, $4, $5)`,
        [token.id, token.organizationId, token.tokenHash, token.description, token.createdAt],
      );
    },
    async findRegistrationTokenByHash(hash) {
      const [row] = await sql.query('select * from agent_registration_tokens where token_hash = $1', [hash]);
      if (!row) return null;
      return {
        id: row.id as string,
        organizationId: row.organization_id as string,
        tokenHash: row.token_hash as string,
        description: (row.description as string | null) ?? null,
        createdAt: toDate(row.created_at),
      } satisfies AgentRegistrationToken;
    },
    async insert(agent, accessTokenHash) {
      await sql.query(
        `insert into agents (id, organization_id, name, hostname, ip_address, user_agent, connection_state, tags,
           creator_id, created_at, access_token_hash, last_seen_at, version, pid)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10, $12, $13)`,
        [
          agent.id,
          agent.organizationId,
          agent.name,
          agent.hostname,
          agent.ipAddress,
          agent.userAgent,
          agent.connectionState,
          agent.tags,
          agent.creatorId,
          agent.createdAt,
          accessTokenHash,
          agent.version,
          agent.pid,
        ],
      );
    },
    async findByAccessTokenHash(hash) {
      const [row] = await sql.query('select * from agents where access_token_hash = $1', [hash]);
      return row ? agentFromRow(row) : null;
    },
    async touch(agentId, at, event) {
      await sql.query(
        `update agents set last_seen_at = greatest(coalesce(last_seen_at, $2), $2),
           connection_state = case $3::text when 'connect' then 'connected' when 'disconnect' then 'disconnected'
             else connection_state end,
           connected_at = case when $3::text = 'connect' then $2 else connected_at end,
           disconnected_at = case when $3::text = 'disconnect' then $2 else disconnected_at end,
           heartbeat_at = case when $3::text = 'heartbeat' then greatest(coalesce(heartbeat_at, $2), $2)
             else heartbeat_at end
         where id = $1`,
        [agentId, at, event ?? null],
      );
    },
    async list(input) {
      const params: unknown[] = [];
      const where = listScope(input, params);
      params.push(input.limit, input.offset);
      const rows = await sql.query(
        `select a.* from agents a where ${where} order by a.created_at, a.id
         limit $${params.length - 1} offset $${params.length}`,
        params,
      );
      return rows.map((row) => agentFromRow(row));
    },
    async count(input) {
      const params: unknown[] = [];
      const [row] = await sql.query<{ count: number }>(
        `select count(*)::int as count from agents a where ${listScope(input, params)}`,
        params,
      );
      return row?.count ?? 0;
    },
  };
}
