import type { AccessTokenRepository, PipelineAccessFacts, PipelineSlugs } from '@ci/application';
import type { AccessToken, Scope, User } from '@ci/domain';
import { toDate, toDateOrNull } from '../rows';
import type { Sql } from '../sql';
import type { AccessMemory } from './access-memory';
import { buildByNumberFromRow, buildByNumberSelect } from './build.repository';
import { USER_COLUMNS, userFromRow } from './identity.repository';
import {
  CATALOG_REVISION,
  factsOfRememberedAccess,
  pipelineAccessFactsFromRow,
  pipelineAccessSelect,
  recallPipeline,
  rememberedAccessSelect,
  rememberedParams,
} from './pipeline.repository';
import type { PipelineMemory } from './pipeline-memory';

type Row = Record<string, unknown>;

const ACCESS_TOKEN_WITH_USER = `select t.id as t_id, t.user_id, t.token_hash, t.scopes, t.organization_ids, t.description,
         t.created_at as t_created_at, t.expires_at, t.revoked_at, ${USER_COLUMNS}
  from access_tokens t join users u on u.id = t.user_id`;

/** The pipeline remembered for the slugs is named by $4 and $5 (pipeline.repository.ts `rememberedParams`). */
const tokenAndAccess = (
  contentRevision: boolean,
) => `from (${ACCESS_TOKEN_WITH_USER} where t.token_hash = $1) tu
  left join lateral (${pipelineAccessSelect({ user: 'tu.user_id', organization: '$2', pipeline: '$3', contentRevision })}) pa on true`;
const TOKEN_AND_ACCESS = tokenAndAccess(false);

/**
 * The token with its user, and what the user may see of the pipeline named by slugs ($2, $3), with the
 * catalog revision they were read at (`cr_revision`).
 */
const WITH_PIPELINE_ACCESS = `select tu.*, pa.*, ${CATALOG_REVISION} ${TOKEN_AND_ACCESS}`;

/** The same and the pipeline's content revision, for a request a kept answer may answer (ADR 0012). */
const WITH_PIPELINE_ACCESS_AND_REVISION = `select tu.*, pa.*, ${CATALOG_REVISION} ${tokenAndAccess(true)}`;

/** A build of the pipeline `pipelineId` by number, as a token's statement reads it: {@link buildByNumberFromRow}. */
const buildOf = (pipelineId: string, number: string) =>
  buildByNumberSelect(pipelineId, number, {
    includeRetriedJobs: false,
    pipelineKnown: true,
    organizationSlug: 'beside',
  });

/**
 * The same and that pipeline's build number $6 (without retried jobs; of the pipeline only its counts, of
 * its organization nothing: the access names the organization's slug `o_slug`).
 */
const WITH_PIPELINE_ACCESS_AND_BUILD = `select tu.*, bn.*, pa.*, ${CATALOG_REVISION} ${TOKEN_AND_ACCESS}
  left join lateral (${buildOf('pa.p_id', '$6')}) bn on true`;

/**
 * For an access remembered with the pipeline $1 (ADR 0013): the revisions that say whether it holds, and
 * what the request reads beside it, as the statements above read it when it does: nothing more, the
 * content revision, or the build number $2 (with the organization's slug $3 as `o_slug`).
 */
const REMEMBERED = rememberedAccessSelect({ pipelineId: '$1::uuid' });
const REMEMBERED_AND_REVISION = rememberedAccessSelect({ pipelineId: '$1::uuid', contentRevision: true });
const REMEMBERED_AND_BUILD = `select ra.*, bn.*, $3::text as o_slug from (${REMEMBERED}) ra
  left join lateral (${buildOf('$1::uuid', '$2')}) bn on true`;

function accessTokenWithUserFromRow(row: Row): { token: AccessToken; user: User } {
  const token: AccessToken = {
    id: row.t_id as string,
    userId: row.user_id as string,
    tokenHash: row.token_hash as string,
    scopes: row.scopes as Scope[],
    organizationIds: (row.organization_ids as string[] | null) ?? null,
    description: (row.description as string | null) ?? null,
    createdAt: toDate(row.t_created_at),
    expiresAt: toDateOrNull(row.expires_at),
    revokedAt: toDateOrNull(row.revoked_at),
  };
  return { token, user: userFromRow(row) };
}

/**
 * What `findByHash` answers with a read-ahead: the token and its user, the access facts, and the build
 * the request reads when it names one (read in `row`, its statement's).
 */
function found(
  { token, user }: { token: AccessToken; user: User },
  readAhead: PipelineSlugs,
  facts: PipelineAccessFacts | null,
  row: Row,
) {
  const build =
    readAhead.buildNumber === undefined
      ? {}
      : { build: facts?.pipeline && row.b_id ? buildByNumberFromRow(row, facts.pipeline) : null };
  return { token, user, pipelineAccess: { ...readAhead, facts, ...build } };
}

export function accessTokenRepository(
  sql: Sql,
  memory: PipelineMemory,
  accesses: AccessMemory,
): AccessTokenRepository {
  return {
    async findByHash(tokenHash, readAhead) {
      if (!readAhead) {
        const [row] = await sql.prepared(`${ACCESS_TOKEN_WITH_USER} where t.token_hash = $1`, [tokenHash]);
        return row ? accessTokenWithUserFromRow(row) : null;
      }
      const { organizationSlug, pipelineSlug } = readAhead;
      const readsBuild = readAhead.buildNumber !== undefined;
      // What the token may do on the pipeline, as read before: it holds while the revisions it was read at
      // have not moved, which one statement reads with what the request reads beside it (ADR 0013).
      const known = accesses.recall(tokenHash, organizationSlug, pipelineSlug);
      if (known) {
        const pipelineId = known.facts.pipeline.id;
        const [row] = await sql.prepared(
          readsBuild
            ? REMEMBERED_AND_BUILD
            : readAhead.contentRevision
              ? REMEMBERED_AND_REVISION
              : REMEMBERED,
          readsBuild ? [pipelineId, readAhead.buildNumber, known.facts.organization.slug] : [pipelineId],
        );
        const facts = factsOfRememberedAccess(known, row);
        if (row && facts) return found(known, readAhead, facts, row);
        accesses.forget(tokenHash, organizationSlug, pipelineSlug);
      }
      // The token, and beside it what its user may see of the pipeline the request names (and the build it
      // reads): one round trip.
      const read = recallPipeline(memory, readAhead);
      const params = [tokenHash, organizationSlug, pipelineSlug, ...rememberedParams(read)];
      const [row] = await sql.prepared(
        readsBuild
          ? WITH_PIPELINE_ACCESS_AND_BUILD
          : readAhead.contentRevision
            ? WITH_PIPELINE_ACCESS_AND_REVISION
            : WITH_PIPELINE_ACCESS,
        readsBuild ? [...params, readAhead.buildNumber] : params,
      );
      if (!row) return null;
      const { token, user } = accessTokenWithUserFromRow(row);
      const facts = pipelineAccessFactsFromRow(row, read);
      // Without a catalog revision (its row gone) no change could be seen: nothing is remembered then.
      if (facts?.pipeline && row.cr_revision != null) {
        const { contentRevision: _readEachTime, ...held } = facts;
        accesses.remember(tokenHash, organizationSlug, pipelineSlug, {
          catalogRevision: row.cr_revision as string,
          pipelineRevision: row.p_revision as string,
          token,
          user,
          facts: { ...held, pipeline: facts.pipeline },
        });
      }
      return found({ token, user }, readAhead, facts, row);
    },
    async findById(id) {
      const [row] = await sql.query(`${ACCESS_TOKEN_WITH_USER} where t.id = $1`, [id]);
      return row ? accessTokenWithUserFromRow(row) : null;
    },
    async insert(token) {
      await sql.query(
        `insert into access_tokens (id, user_id, token_hash, scopes, organization_ids, description, created_at, expires_at, revoked_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          token.id,
          token.userId,
          token.tokenHash,
          token.scopes,
          token.organizationIds,
          token.description,
          token.createdAt,
          token.expiresAt,
          token.revokedAt,
        ],
      );
    },
    async revoke(id, at) {
      const rows = await sql.query(
        'update access_tokens set revoked_at = $2 where id = $1 and revoked_at is null returning id',
        [id, at],
      );
      return rows.length > 0;
    },
  };
}
