import type { AgentRegistrationToken, AgentRepository, AgentTokenScope } from '@ci/application';
import {
  ACTIVE_JOB_STATES,
  type Agent,
  type AgentListFilter,
  GONE_AGENT_STATES,
  LOSABLE_AGENT_STATES,
} from '@ci/domain';
import type { InferEntity } from '@mikro-orm/core';
import { ForeignKeyConstraintViolationException, raw } from '@mikro-orm/postgresql';
import { AgentEntity, AgentRegistrationTokenEntity, toAgent } from '../entities/agent.entity';
import type { EntityManagerSource } from '../orm';
import { prefixedObject, toDate, toDateOrNull } from '../rows';
import { likeLiteral, type Sql } from '../sql';

type Row = Record<string, unknown>;

/** As the partial index of Migration20261128020000 names them, so the sweep reads through it. */
const LOSABLE = `(${LOSABLE_AGENT_STATES.map((state) => `'${state}'`).join(', ')})`;

// Agents as the jobs' SQL reads them (the agent holding a job, beside it).

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
    pausedAt: toDateOrNull(column('paused_at')),
    pauseNote: (column('pause_note') as string | null) ?? null,
    pausedUntil: toDateOrNull(column('paused_until')),
    clusterId: (column('cluster_id') as string | null) ?? null,
    clusterQueueId: (column('cluster_queue_id') as string | null) ?? null,
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
  'paused_at',
  'pause_note',
  'paused_until',
  'cluster_id',
  'cluster_queue_id',
] as const;

/** The columns `agentFromRow` reads, of agents `a`, as one JSON object whose keys are `a_<column>`. */
export const AGENT_OBJECT = prefixedObject('a', AGENT_COLUMNS);

/** States of a job an agent holds, as the partial unique index `jobs_one_active_per_agent_idx` names them. */
export const HELD_JOB_STATES = `(${ACTIVE_JOB_STATES.map((state) => `'${state}'`).join(', ')})`;

/** An organization's agents narrowed by `filter`. */
function inScope({ organizationId, filter }: { organizationId: string; filter: AgentListFilter }) {
  const { search, metaData, isRunningJob, name, hostname, version, presentOnly, clusterQueueIds } = filter;
  const pattern = search === null ? null : `%${likeLiteral(search)}%`;
  const holding = { $in: [...ACTIVE_JOB_STATES] };
  return {
    organization: organizationId,
    ...(pattern === null
      ? {}
      : {
          $or: [
            { name: { $ilike: pattern } },
            { [raw((a) => `exists (select 1 from unnest(${a}.tags) t where t ilike ?)`, [pattern])]: [] },
          ],
        }),
    ...(metaData.length ? { tags: { $contains: metaData } } : {}),
    ...(name === null ? {} : { name }),
    ...(hostname === null ? {} : { hostname }),
    ...(version === null ? {} : { version }),
    ...(presentOnly ? { connectionState: { $nin: [...GONE_AGENT_STATES] } } : {}),
    ...(clusterQueueIds === null ? {} : { clusterQueue: { $in: clusterQueueIds } }),
    ...(isRunningJob === null
      ? {}
      : { jobs: isRunningJob ? { $some: { state: holding } } : { $none: { state: holding } } }),
  };
}

function toRegistrationToken(
  token: InferEntity<typeof AgentRegistrationTokenEntity>,
): AgentRegistrationToken {
  return {
    id: token.id,
    organizationId: token.organization.id,
    tokenHash: token.tokenHash,
    description: token.description ?? null,
    createdAt: token.createdAt,
    creatorId: token.creator?.id ?? null,
    public: token.public,
    revokedAt: token.revokedAt ?? null,
    revokedById: token.revokedBy?.id ?? null,
    revokedReason: token.revokedReason ?? null,
  };
}

/** An organization's registration tokens: all, the revoked or the usable ones. */
function tokensInScope({ organizationId, revoked }: AgentTokenScope) {
  return {
    organization: organizationId,
    ...(revoked === null ? {} : { revokedAt: revoked ? { $ne: null } : null }),
  };
}

export function agentRepository(entityManager: EntityManagerSource, sql: Sql): AgentRepository {
  return {
    async insertRegistrationToken({ organizationId, creatorId, revokedById, ...token }) {
      await entityManager().insert(AgentRegistrationTokenEntity, {
        ...token,
        organization: organizationId,
        creator: creatorId,
        revokedBy: revokedById,
      });
    },
    async registrationTokens(ids) {
      if (ids.length === 0) return [];
      const tokens = await entityManager().find(AgentRegistrationTokenEntity, { id: { $in: [...ids] } });
      return tokens.map(toRegistrationToken);
    },
    async listRegistrationTokens({ offset, limit, ...scope }) {
      const tokens = await entityManager().find(AgentRegistrationTokenEntity, tokensInScope(scope), {
        orderBy: { createdAt: 'asc', id: 'asc' },
        limit,
        offset,
      });
      return tokens.map(toRegistrationToken);
    },
    countRegistrationTokens: (scope) =>
      entityManager().count(AgentRegistrationTokenEntity, tokensInScope(scope)),
    async revokeRegistrationToken({ id, at, byId, reason }) {
      // One statement: of two concurrent revokes, one changes the row and the other finds it revoked.
      const changed = await entityManager().nativeUpdate(
        AgentRegistrationTokenEntity,
        { id, revokedAt: null },
        { revokedAt: at, revokedBy: byId, revokedReason: reason },
      );
      if (changed === 0) return null;
      const token = await entityManager().findOne(AgentRegistrationTokenEntity, { id }, { refresh: true });
      return token ? toRegistrationToken(token) : null;
    },
    async findRegistrationTokenByHash(hash) {
      const token = await entityManager().findOne(AgentRegistrationTokenEntity, { tokenHash: hash });
      return token ? toRegistrationToken(token) : null;
    },
    async insert({ organizationId, creatorId, clusterId, clusterQueueId, ...agent }, accessTokenHash) {
      try {
        await entityManager().insert(AgentEntity, {
          ...agent,
          organization: organizationId,
          creator: creatorId,
          cluster: clusterId,
          clusterQueue: clusterQueueId,
          accessTokenHash,
          lastSeenAt: agent.createdAt,
        });
        return 'inserted';
      } catch (error) {
        // The cluster or its queue was deleted since the token was read.
        if (error instanceof ForeignKeyConstraintViolationException) return 'cluster_gone';
        throw error;
      }
    },
    async findByAccessTokenHash(hash) {
      const agent = await entityManager().findOne(AgentEntity, { accessTokenHash: hash });
      return agent ? toAgent(agent) : null;
    },
    async touch(agentId, at, event) {
      // Times only move forward, whatever order concurrent requests arrive in.
      const latest = (column: string) => raw(`greatest(coalesce(${column}, ?), ?)`, [at, at]);
      await entityManager().nativeUpdate(
        AgentEntity,
        { id: agentId },
        {
          lastSeenAt: latest('last_seen_at'),
          ...(event === 'connect' ? { connectionState: 'connected', connectedAt: at } : {}),
          // A stop requested ends as `stopped` (the domain's connectionStateAfterDisconnect).
          ...(event === 'disconnect'
            ? {
                connectionState: raw(
                  `case connection_state when 'stopping' then 'stopped' else 'disconnected' end`,
                ),
                disconnectedAt: at,
              }
            : {}),
          ...(event === 'heartbeat' ? { heartbeatAt: latest('heartbeat_at') } : {}),
        },
      );
    },
    async markLost(silentSince) {
      // The row trigger of Migration20261127170000 enqueues `agent.lost` for each in this transaction.
      const lost = await sql.query(
        `update agents set connection_state = 'lost'
         where connection_state in ${LOSABLE} and coalesce(last_seen_at, created_at) < $1 returning id`,
        [silentSince],
      );
      return lost.length;
    },
    async list({ offset, limit, ...scope }) {
      const agents = await entityManager().find(AgentEntity, inScope(scope), {
        orderBy: { createdAt: 'asc', id: 'asc' },
        limit,
        offset,
      });
      return agents.map(toAgent);
    },
    count: (scope) => entityManager().count(AgentEntity, inScope(scope)),
    async change(agentId, change) {
      // The row is locked while the domain decides, so concurrent controls apply one after the other, and
      // a dispatch (which reads the agent `for share`) sees the change or finishes before it.
      return sql.transaction(async (tx) => {
        const [row] = await tx.query(`select * from agents where id = $1 for update`, [agentId]);
        if (!row) return null;
        const next = change(agentFromRow(row));
        await tx.query(
          `update agents set connection_state = $2, paused_at = $3, pause_note = $4, paused_until = $5
           where id = $1`,
          [agentId, next.connectionState, next.pausedAt, next.pauseNote, next.pausedUntil],
        );
        return next;
      });
    },
  };
}
