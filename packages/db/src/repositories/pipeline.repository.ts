import type {
  AccessRepository,
  OrganizationAccess,
  PipelineAccessEntry,
  PipelineAccessFacts,
  PipelineListScope,
  PipelineRecord,
  PipelineRepository,
  PipelineRevisionFacts,
} from '@ci/application';
import type {
  AccessLevel,
  OrganizationRole,
  Pipeline,
  PipelineVisibility,
  StepDefinition,
  TeamMemberRole,
} from '@ci/domain';
import { namedStatement } from '../named-statement';
import { prefixedColumns, toDate, toDateOrNull } from '../rows';
import { isForeignKeyViolation, isUniqueViolation, likeLiteral, type Sql } from '../sql';
import {
  joinedUserFromRow,
  organizationFromRow,
  PIPELINE_CREATOR_COLUMNS,
  pipelineCreatorFromRow,
  USER_COLUMNS_PREFIXED,
} from './identity.repository';
import { countsFromRow, PIPELINE_COUNT_COLUMNS } from './pipeline-counts';
import { viewerRole } from './team.repository';

type Row = Record<string, unknown>;

const PIPELINE_COLUMN_NAMES = [
  'id',
  'organization_id',
  'slug',
  'name',
  'description',
  'repository',
  'default_branch',
  'branch_configuration',
  'steps',
  'provider',
  'webhook_token',
  'skip_queued_branch_builds',
  'skip_queued_branch_builds_filter',
  'cancel_running_branch_builds',
  'cancel_running_branch_builds_filter',
  'next_build_number',
  'archived_at',
  'created_at',
  'env',
  'visibility',
  'tags',
  'cluster_id',
  'allow_rebuilds',
  'configuration',
  'created_by_id',
  'color',
  'emoji',
  'default_timeout_in_minutes',
  'maximum_timeout_in_minutes',
  'pipeline_template_id',
] as const;

type PipelineColumn = (typeof PIPELINE_COLUMN_NAMES)[number];

/** The columns of pipelines `p`, each named `p_<column>`, as {@link pipelineFromRow} reads them. */
export const PIPELINE_COLUMNS = prefixedColumns('p', PIPELINE_COLUMN_NAMES);

export function pipelineFromRow(row: Row): Pipeline {
  return {
    id: row.p_id as string,
    organizationId: row.p_organization_id as string,
    slug: row.p_slug as string,
    name: row.p_name as string,
    description: (row.p_description as string | null) ?? null,
    repository: row.p_repository as string,
    defaultBranch: (row.p_default_branch as string | null) ?? null,
    branchConfiguration: (row.p_branch_configuration as string | null) ?? null,
    steps: row.p_steps as StepDefinition[],
    provider: row.p_provider as Pipeline['provider'],
    webhookToken: (row.p_webhook_token as string | null) ?? null,
    skipQueuedBranchBuilds: row.p_skip_queued_branch_builds as boolean,
    skipQueuedBranchBuildsFilter: (row.p_skip_queued_branch_builds_filter as string | null) ?? null,
    cancelRunningBranchBuilds: row.p_cancel_running_branch_builds as boolean,
    cancelRunningBranchBuildsFilter: (row.p_cancel_running_branch_builds_filter as string | null) ?? null,
    nextBuildNumber: row.p_next_build_number as number,
    archivedAt: toDateOrNull(row.p_archived_at),
    createdAt: toDate(row.p_created_at),
    env: (row.p_env as Record<string, string> | null) ?? {},
    visibility: row.p_visibility as PipelineVisibility,
    tags: (row.p_tags as string[] | null) ?? null,
    clusterId: (row.p_cluster_id as string | null) ?? null,
    allowRebuilds: row.p_allow_rebuilds as boolean,
    configuration: (row.p_configuration as string | null) ?? null,
    createdById: (row.p_created_by_id as string | null) ?? null,
    color: (row.p_color as string | null) ?? null,
    emoji: (row.p_emoji as string | null) ?? null,
    defaultTimeoutInMinutes: (row.p_default_timeout_in_minutes as number | null) ?? null,
    maximumTimeoutInMinutes: (row.p_maximum_timeout_in_minutes as number | null) ?? null,
    pipelineTemplateId: (row.p_pipeline_template_id as string | null) ?? null,
  };
}

/** The constraint that keeps slugs unique per organization (the entity's `uniques`). */
const SLUG_CONSTRAINT = 'pipelines_organization_id_slug_unique';
/** A pipeline template deleted between the use case's look-up and the write (Migration20261127042500). */
const TEMPLATE_CONSTRAINT = 'pipelines_pipeline_template_id_foreign';

const RECORD_SELECT = `select ${PIPELINE_COLUMNS}, ${PIPELINE_COUNT_COLUMNS}, ${USER_COLUMNS_PREFIXED}
from pipelines p left join users u on u.id = p.created_by_id left join pipeline_counts pc on pc.pipeline_id = p.id`;

/** `like` patterns match their text literally: `%`, `_` and `\\` in a filter are not wildcards. */
function containing(text: string | null): string | null {
  return text === null ? null : `%${likeLiteral(text)}%`;
}

const LIST_SCOPE = `p.organization_id = $1 and ($2::uuid[] is null or p.id = any($2::uuid[]))
  and ($3::text is null or p.name ilike $3) and ($4::text is null or p.repository ilike $4)
  and ($5::boolean is null or (p.archived_at is not null) = $5)`;

function scopeParams(scope: PipelineListScope): unknown[] {
  return [
    scope.organizationId,
    scope.visiblePipelineIds,
    containing(scope.filter.name),
    containing(scope.filter.repository),
    scope.filter.archived,
  ];
}

/** Pipeline rows (with their live counts beside) as records with their creators. */
function records(rows: Row[]): PipelineRecord[] {
  return rows.map((row) => ({
    pipeline: { ...pipelineFromRow(row), counts: countsFromRow(row) },
    createdBy: joinedUserFromRow(row),
  }));
}

/** The pipeline's value of each column, as the statements write it. */
function pipelineRecord(pipeline: Pipeline): Record<PipelineColumn, unknown> {
  return {
    id: pipeline.id,
    organization_id: pipeline.organizationId,
    slug: pipeline.slug,
    name: pipeline.name,
    description: pipeline.description,
    repository: pipeline.repository,
    default_branch: pipeline.defaultBranch,
    branch_configuration: pipeline.branchConfiguration,
    steps: JSON.stringify(pipeline.steps),
    provider: JSON.stringify(pipeline.provider),
    webhook_token: pipeline.webhookToken,
    skip_queued_branch_builds: pipeline.skipQueuedBranchBuilds,
    skip_queued_branch_builds_filter: pipeline.skipQueuedBranchBuildsFilter,
    cancel_running_branch_builds: pipeline.cancelRunningBranchBuilds,
    cancel_running_branch_builds_filter: pipeline.cancelRunningBranchBuildsFilter,
    next_build_number: pipeline.nextBuildNumber,
    archived_at: pipeline.archivedAt,
    created_at: pipeline.createdAt,
    env: JSON.stringify(pipeline.env),
    visibility: pipeline.visibility,
    tags: pipeline.tags,
    cluster_id: pipeline.clusterId,
    allow_rebuilds: pipeline.allowRebuilds,
    configuration: pipeline.configuration,
    created_by_id: pipeline.createdById,
    color: pipeline.color,
    emoji: pipeline.emoji,
    default_timeout_in_minutes: pipeline.defaultTimeoutInMinutes,
    maximum_timeout_in_minutes: pipeline.maximumTimeoutInMinutes,
    pipeline_template_id: pipeline.pipelineTemplateId,
  };
}

const INSERT = `insert into pipelines (${PIPELINE_COLUMN_NAMES.join(', ')})
  values (${PIPELINE_COLUMN_NAMES.map((_, i) => `$${i + 1}`).join(', ')})`;
const insertValues = (pipeline: Pipeline) => {
  const record = pipelineRecord(pipeline);
  return PIPELINE_COLUMN_NAMES.map((column) => record[column]);
};

/** What an update leaves: the identity, the counter (builds take it under their own lock) and the creation. */
const UNCHANGING: ReadonlySet<PipelineColumn> = new Set([
  'id',
  'organization_id',
  'webhook_token',
  'next_build_number',
  'created_at',
  'created_by_id',
]);
const UPDATED = PIPELINE_COLUMN_NAMES.filter((column) => !UNCHANGING.has(column));
const UPDATE = `update pipelines set ${UPDATED.map((column, i) => `${column} = $${i + 2}`).join(', ')} where id = $1`;

export function pipelineRepository(sql: Sql): PipelineRepository {
  return {
    async findBySlug(organizationId, slug) {
      const [row] = await sql.query(
        `select ${PIPELINE_COLUMNS} from pipelines p where p.organization_id = $1 and p.slug = $2`,
        [organizationId, slug],
      );
      return row ? pipelineFromRow(row) : null;
    },
    async findById(organizationId, id) {
      const [row] = await sql.query(
        `select ${PIPELINE_COLUMNS} from pipelines p where p.organization_id = $1 and p.id = $2`,
        [organizationId, id],
      );
      return row ? pipelineFromRow(row) : null;
    },
    async insert(pipeline) {
      await sql.query(INSERT, insertValues(pipeline));
    },
    async list(input) {
      const rows = await sql.query(
        `${RECORD_SELECT} where ${LIST_SCOPE} order by p.created_at, p.id limit $6 offset $7`,
        [...scopeParams(input), input.limit, input.offset],
      );
      return records(rows);
    },
    async count(scope) {
      const [row] = await sql.query<{ count: number }>(
        `select count(*)::int as count from pipelines p where ${LIST_SCOPE}`,
        scopeParams(scope),
      );
      return row?.count ?? 0;
    },
    async findRecord(id) {
      const rows = await sql.query(`${RECORD_SELECT} where p.id = $1`, [id]);
      const [record] = records(rows);
      return record ?? null;
    },
    async teamsIn({ organizationId, teamIds, userId }) {
      if (teamIds.length === 0) return [];
      const rows = await sql.query(
        `select t.id, t.members_can_create_pipelines, ${viewerRole('$3')}
         from teams t where t.organization_id = $1 and t.id = any($2::uuid[])`,
        [organizationId, teamIds, userId],
      );
      return rows.map((row) => ({
        teamId: row.id as string,
        viewerRole: (row.viewer_role as TeamMemberRole | null) ?? null,
        membersCanCreatePipelines: row.members_can_create_pipelines as boolean,
      }));
    },
    async create({ pipeline, teams }) {
      try {
        await sql.transaction(async (tx) => {
          await tx.query(INSERT, insertValues(pipeline));
          if (teams.length === 0) return;
          await tx.query(
            `insert into team_pipelines (id, team_id, pipeline_id, access_level, created_at)
             select x.id, x.team_id, x.pipeline_id, x.access_level, x.created_at
             from jsonb_to_recordset($1::jsonb)
               as x(id uuid, team_id uuid, pipeline_id uuid, access_level text, created_at timestamptz)`,
            [
              JSON.stringify(
                teams.map((team) => ({
                  id: team.id,
                  team_id: team.teamId,
                  pipeline_id: team.pipelineId,
                  access_level: team.accessLevel,
                  created_at: team.createdAt.toISOString(),
                })),
              ),
            ],
          );
        });
        return 'created';
      } catch (error) {
        if (isUniqueViolation(error, SLUG_CONSTRAINT)) return 'slug_taken';
        // A team named by the new pipeline was deleted meanwhile.
        if (isForeignKeyViolation(error, 'team_pipelines_team_id_foreign')) return 'team_not_found';
        if (isForeignKeyViolation(error, TEMPLATE_CONSTRAINT)) return 'template_not_found';
        throw error;
      }
    },
    async update({ id, change }) {
      try {
        return await sql.transaction(async (tx) => {
          const [row] = await tx.query(
            `select ${PIPELINE_COLUMNS} from pipelines p where p.id = $1 for update`,
            [id],
          );
          if (!row) return 'not_found' as const;
          const next = change(pipelineFromRow(row));
          const record = pipelineRecord(next);
          await tx.query(UPDATE, [id, ...UPDATED.map((column) => record[column])]);
          return next;
        });
      } catch (error) {
        if (isUniqueViolation(error, SLUG_CONSTRAINT)) return 'slug_taken';
        if (isForeignKeyViolation(error, TEMPLATE_CONSTRAINT)) return 'template_not_found';
        throw error;
      }
    },
    async delete(id) {
      // Builds, their jobs and the team associations go with the pipeline (foreign keys on delete cascade).
      const rows = await sql.query('delete from pipelines where id = $1 returning id', [id]);
      return rows.length > 0;
    },
  };
}

/** An organization `o` with the role of the user's membership `m`. */
const ORGANIZATION_ACCESS_COLUMNS = `${prefixedColumns('o', [
  'id',
  'slug',
  'name',
  'created_at',
  // Read with the access, so that the allowlist costs no statement of its own (ip-allowlist.ts).
  'allowed_api_ip_addresses',
  'members_require_two_factor_authentication',
])}, m.role as o_role`;

/** The organization and role of a row read with {@link ORGANIZATION_ACCESS_COLUMNS}. */
function organizationAccessFromRow(row: Row): OrganizationAccess {
  return { organization: organizationFromRow(row, 'o_'), role: row.o_role as OrganizationRole };
}

/** What the teams of the user `user` (an SQL expression) give on the pipeline `p`, and whether it has any team at all. */
function teamAccessColumns(user: string): string {
  return `coalesce((select array_agg(tp.access_level) from team_pipelines tp
    join team_members tm on tm.team_id = tp.team_id and tm.user_id = ${user}
    where tp.pipeline_id = p.id), '{}') as team_access_levels,
  exists (select 1 from team_pipelines tp where tp.pipeline_id = p.id) as pipeline_has_teams`;
}

function teamAccessFromRow(row: Row): Pick<PipelineAccessEntry, 'teamAccessLevels' | 'pipelineHasTeams'> {
  return {
    teamAccessLevels: row.team_access_levels as AccessLevel[],
    pipelineHasTeams: row.pipeline_has_teams as boolean,
  };
}

/**
 * Pipeline `p`'s content revision (`p_content_revision`, {@link PipelineAccessFacts}): its own revision, its
 * builds' and the catalog's (Migration20261125090000), read in the access statement, before anything an
 * answer shows is read (ADR 0016).
 */
const CONTENT_REVISION = `case when p.id is null then null else p.revision || '.' ||
    (select pc.builds_revision from pipeline_counts pc where pc.pipeline_id = p.id) || '.' ||
    (select cr.revision from catalog_revision cr where cr.id = 1) end as p_content_revision`;

/**
 * `pipeline_access` (`whole`) and `pipeline_revision`: what the user may see of a pipeline named by
 * slugs: the organization with the user's role (`o_…`), what the user's teams give on the pipeline and
 * its content revision, in one row (none when the user is not a member); whole, the pipeline (`p_…`) and
 * its creator (`pu_…`) too, else only the pipeline's id: what a cache hit or a 304 reads (ADR 0016). One
 * text for both, so they decide access alike.
 */
function pipelineAccessText(whole: boolean): string {
  return `select ${ORGANIZATION_ACCESS_COLUMNS},
    ${whole ? `${PIPELINE_COLUMNS}, ${PIPELINE_CREATOR_COLUMNS}` : 'p.id as p_id'},
    ${teamAccessColumns(':user_id')}, ${CONTENT_REVISION}
  from organizations o
  join organization_members m on m.organization_id = o.id and m.user_id = :user_id
  left join pipelines p on p.organization_id = o.id and p.slug = :pipeline_slug
  ${whole ? 'left join users pu on pu.id = p.created_by_id' : ''}
  where o.slug = :organization_slug`;
}
export const PIPELINE_ACCESS_TEXT = pipelineAccessText(true);
const PIPELINE_ACCESS = namedStatement(PIPELINE_ACCESS_TEXT);
const PIPELINE_REVISION = namedStatement(pipelineAccessText(false));

/** The facts of a {@link PIPELINE_REVISION} row; null when there is none. */
function pipelineRevisionFactsFromRow(row: Row | undefined): PipelineRevisionFacts | null {
  if (!row) return null;
  return {
    ...organizationAccessFromRow(row),
    pipeline: row.p_id ? { id: row.p_id as string } : null,
    ...teamAccessFromRow(row),
    contentRevision: (row.p_content_revision as string | null) ?? null,
  };
}

/** The facts of a {@link PIPELINE_ACCESS} row; null when there is none. */
export function pipelineAccessFactsFromRow(row: Row | undefined): PipelineAccessFacts | null {
  const facts = pipelineRevisionFactsFromRow(row);
  if (!row || !facts) return null;
  return {
    ...facts,
    pipeline: row.p_id ? pipelineFromRow(row) : null,
    pipelineCreator: pipelineCreatorFromRow(row),
  };
}

export function accessRepository(sql: Sql): AccessRepository {
  return {
    async organization({ userId, organizationSlug }) {
      const [row] = await sql.query(
        `select ${ORGANIZATION_ACCESS_COLUMNS}
         from organizations o join organization_members m on m.organization_id = o.id and m.user_id = $1
         where o.slug = $2`,
        [userId, organizationSlug],
      );
      return row ? organizationAccessFromRow(row) : null;
    },
    async pipeline({ userId, organizationSlug, pipelineSlug }) {
      const [row] = await sql.prepared(
        PIPELINE_ACCESS.text,
        PIPELINE_ACCESS.values({
          user_id: userId,
          organization_slug: organizationSlug,
          pipeline_slug: pipelineSlug,
        }),
      );
      return pipelineAccessFactsFromRow(row);
    },
    async pipelineRevision({ userId, organizationSlug, pipelineSlug }) {
      const [row] = await sql.prepared(
        PIPELINE_REVISION.text,
        PIPELINE_REVISION.values({
          user_id: userId,
          organization_slug: organizationSlug,
          pipeline_slug: pipelineSlug,
        }),
      );
      return pipelineRevisionFactsFromRow(row);
    },
    async memberships(userId) {
      const rows = await sql.query(
        `select ${ORGANIZATION_ACCESS_COLUMNS}
         from organizations o join organization_members m on m.organization_id = o.id
         where m.user_id = $1 order by o.slug`,
        [userId],
      );
      return rows.map(organizationAccessFromRow);
    },
    async pipelineAccessIn({ userId, organizationIds }) {
      if (organizationIds.length === 0) return [];
      const rows = await sql.query(
        `select p.id, p.organization_id, ${teamAccessColumns('$1')}
         from pipelines p where p.organization_id = any($2::uuid[])`,
        [userId, organizationIds],
      );
      return rows.map((row) => ({
        pipelineId: row.id as string,
        organizationId: row.organization_id as string,
        ...teamAccessFromRow(row),
      }));
    },
  };
}
