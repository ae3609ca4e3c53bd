import type { AgentRegistrationToken, AgentRepository } from '@ci/application';
import type { Agent } from '@ci/domain';
import { toDate } from '../rows';
import type { Sql } from '../sql';

type Row = Record<string, unknown>;

function agentFromRow(row: Row): Agent {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    name: row.name as string,
    hostname: (row.hostname as string | null) ?? null,
    ipAddress: (row.ip_address as string | null) ?? null,
    userAgent: (row.user_agent as string | null) ?? null,
    connectionState: row.connection_state as string,
    tags: row.tags as string[],
    creatorId: (row.creator_id as string | null) ?? null,
    createdAt: toDate(row.created_at),
  };
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
           creator_id, created_at, access_token_hash, last_seen_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10)`,
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
        ],
      );
    },
    async findByAccessTokenHash(hash) {
      const [row] = await sql.query('select * from agents where access_token_hash = $1', [hash]);
      return row ? agentFromRow(row) : null;
    },
    async touch(agentId, at, connectionState) {
      await sql.query(
        `update agents set last_seen_at = greatest(coalesce(last_seen_at, $2), $2),
           connection_state = coalesce($3, connection_state) where id = $1`,
        [agentId, at, connectionState ?? null],
      );
    },
  };
}
