import type { AccessRepository, PipelineRepository } from '@ci/application';
import type { AccessLevel, OrganizationRole, Pipeline, StepDefinition } from '@ci/domain';
import { toDate, toDateOrNull } from '../rows';
import type { Sql } from '../sql';
import { organizationFromRow } from './identity.repository';

type Row = Record<string, unknown>;

export const PIPELINE_COLUMNS = `p.id as p_id, p.organization_id as p_organization_id, p.slug as p_slug, p.name as p_name,
  p.description as p_description, p.repository as p_repository, p.default_branch as p_default_branch,
  p.branch_configuration as p_branch_configuration, p.steps as p_steps, p.provider as p_provider,
  p.webhook_token as p_webhook_token, p.skip_queued_branch_builds as p_skip_queued_branch_builds,
  p.skip_queued_branch_builds_filter as p_skip_queued_branch_builds_filter,
  p.cancel_running_branch_builds as p_cancel_running_branch_builds,
  p.cancel_running_branch_builds_filter as p_cancel_running_branch_builds_filter,
  p.next_build_number as p_next_build_number, p.archived_at as p_archived_at, p.created_at as p_created_at`;

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
    webhookToken: row.p_webhook_token as string,
    skipQueuedBranchBuilds: row.p_skip_queued_branch_builds as boolean,
    skipQueuedBranchBuildsFilter: (row.p_skip_queued_branch_builds_filter as string | null) ?? null,
    cancelRunningBranchBuilds: row.p_cancel_running_branch_builds as boolean,
    cancelRunningBranchBuildsFilter: (row.p_cancel_running_branch_builds_filter as string | null) ?? null,
    nextBuildNumber: row.p_next_build_number as number,
    archivedAt: toDateOrNull(row.p_archived_at),
    createdAt: toDate(row.p_created_at),
  };
}

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
      await sql.query(
        `insert into pipelines (id, organization_id, slug, name, description, repository, default_branch,
           branch_configuration, steps, provider, webhook_token, skip_queued_branch_builds,
           skip_queued_branch_builds_filter, cancel_running_branch_builds, cancel_running_branch_builds_filter,
           next_build_number, archived_at, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
        [
          pipeline.id,
          pipeline.organizationId,
          pipeline.slug,
          pipeline.name,
          pipeline.description,
          pipeline.repository,
          pipeline.defaultBranch,
          pipeline.branchConfiguration,
          JSON.stringify(pipeline.steps),
          JSON.stringify(pipeline.provider),
          pipeline.webhookToken,
          pipeline.skipQueuedBranchBuilds,
          pipeline.skipQueuedBranchBuildsFilter,
          pipeline.cancelRunningBranchBuilds,
          pipeline.cancelRunningBranchBuildsFilter,
          pipeline.nextBuildNumber,
          pipeline.archivedAt,
          pipeline.createdAt,
        ],
      );
    },
  };
}

export function accessRepository(sql: Sql): AccessRepository {
  return {
    async organization({ userId, organizationSlug }) {
      const [row] = await sql.query(
        `select o.id, o.slug, o.name, o.created_at, m.role
         from organizations o join organization_members m on m.organization_id = o.id and m.user_id = $1
         where o.slug = $2`,
        [userId, organizationSlug],
      );
      return row ? { organization: organizationFromRow(row), role: row.role as OrganizationRole } : null;
    },
    async pipeline({ userId, organizationSlug, pipelineSlug }) {
      // Organization, membership, pipeline and the user's team access levels in one round trip.
      const [row] = await sql.query(
        `select o.id, o.slug, o.name, o.created_at, m.role, ${PIPELINE_COLUMNS},
           coalesce((select array_agg(tp.access_level) from team_pipelines tp
                     join team_members tm on tm.team_id = tp.team_id and tm.user_id = $1
                     where tp.pipeline_id = p.id), '{}') as team_access_levels,
           exists (select 1 from team_pipelines tp where tp.pipeline_id = p.id) as pipeline_has_teams
         from organizations o
         join organization_members m on m.organization_id = o.id and m.user_id = $1
         left join pipelines p on p.organization_id = o.id and p.slug = $3
         where o.slug = $2`,
        [userId, organizationSlug, pipelineSlug],
      );
      if (!row) return null;
      return {
        organization: organizationFromRow(row),
        role: row.role as OrganizationRole,
        pipeline: row.p_id ? pipelineFromRow(row) : null,
        teamAccessLevels: row.team_access_levels as AccessLevel[],
        pipelineHasTeams: row.pipeline_has_teams as boolean,
      };
    },
    async memberships(userId) {
      const rows = await sql.query(
        `select o.id, o.slug, o.name, o.created_at, m.role
         from organizations o join organization_members m on m.organization_id = o.id
         where m.user_id = $1 order by o.slug`,
        [userId],
      );
      return rows.map((row) => ({
        organization: organizationFromRow(row),
        role: row.role as OrganizationRole,
      }));
    },
    async pipelineAccessIn({ userId, organizationIds }) {
      if (organizationIds.length === 0) return [];
      const rows = await sql.query(
        `select p.id, p.organization_id,
           coalesce((select array_agg(tp.access_level) from team_pipelines tp
                     join team_members tm on tm.team_id = tp.team_id and tm.user_id = $1
                     where tp.pipeline_id = p.id), '{}') as team_access_levels,
           exists (select 1 from team_pipelines tp where tp.pipeline_id = p.id) as pipeline_has_teams
         from pipelines p where p.organization_id = any($2::uuid[])`,
        [userId, organizationIds],
      );
      return rows.map((row) => ({
        pipelineId: row.id as string,
        organizationId: row.organization_id as string,
        teamAccessLevels: row.team_access_levels as AccessLevel[],
        pipelineHasTeams: row.pipeline_has_teams as boolean,
      }));
    },
  };
}
