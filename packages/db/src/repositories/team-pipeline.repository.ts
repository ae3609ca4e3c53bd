import type {
  ParentCount,
  ParentWindow,
  TeamPipelineRepository,
  TeamPipelineView,
  VisibleAcrossOrganizations,
} from '@ci/application';
import type { AccessLevel, TeamPipeline } from '@ci/domain';
import { inParentWindows, parentWindows, toDate } from '../rows';
import { isForeignKeyViolation, type Sql } from '../sql';
import { PIPELINE_COLUMNS, pipelineFromRow } from './pipeline.repository';

type Row = Record<string, unknown>;

export const TEAM_PIPELINE_COLUMNS = `tp.id, tp.team_id, tp.pipeline_id, tp.access_level, tp.created_at,
  p.slug as pipeline_slug, ${PIPELINE_COLUMNS}`;

export function teamPipelineViewFromRow(row: Row): TeamPipelineView {
  return {
    teamPipeline: {
      id: row.id as string,
      teamId: row.team_id as string,
      pipelineId: row.pipeline_id as string,
      accessLevel: row.access_level as AccessLevel,
      createdAt: toDate(row.created_at),
    },
    pipelineSlug: row.pipeline_slug as string,
    pipeline: pipelineFromRow(row),
  };
}

/** `$2` null: every association of the team; otherwise only those of these pipelines. */
const TEAM_SCOPE = 'tp.team_id = $1 and ($2::uuid[] is null or tp.pipeline_id = any($2::uuid[]))';

/**
 * Whose associations a batched list shows (`$4` the organizations where the viewer is an admin, `$5`
 * the pipelines or teams they may see elsewhere), and the column each parent's window is taken on.
 */
const BY_PARENT = {
  team: { parent: 'tp.team_id', visible: 'tp.pipeline_id' },
  pipeline: { parent: 'tp.pipeline_id', visible: 'tp.team_id' },
} as const;

function visibility(of: keyof typeof BY_PARENT, first: number): string {
  return `(p.organization_id = any($${first}::uuid[]) or ${BY_PARENT[of].visible} = any($${first + 1}::uuid[]))`;
}

async function listOfParents(
  sql: Sql,
  of: keyof typeof BY_PARENT,
  windows: readonly ParentWindow[],
  visible: VisibleAcrossOrganizations,
): Promise<TeamPipelineView[]> {
  if (windows.every((window) => window.limit === 0)) return [];
  const rows = await sql.query(
    inParentWindows(
      `select ${TEAM_PIPELINE_COLUMNS} from team_pipelines tp join pipelines p on p.id = tp.pipeline_id
       where ${BY_PARENT[of].parent} = w.parent_id and ${visibility(of, 4)}
       order by tp.created_at, ${of === 'team' ? 'tp.pipeline_id' : 'tp.team_id'} offset w.off limit w.lim`,
    ),
    [...parentWindows(windows), visible.adminOrganizationIds, visible.visibleIds],
  );
  return rows.map(teamPipelineViewFromRow);
}

async function countOfParents(
  sql: Sql,
  of: keyof typeof BY_PARENT,
  parentIds: readonly string[],
  visible: VisibleAcrossOrganizations,
): Promise<ParentCount[]> {
  if (parentIds.length === 0) return [];
  return sql.query<ParentCount>(
    `select ${BY_PARENT[of].parent} as "parentId", count(*)::int as count
     from team_pipelines tp join pipelines p on p.id = tp.pipeline_id
     where ${BY_PARENT[of].parent} = any($1::uuid[]) and ${visibility(of, 2)}
     group by ${BY_PARENT[of].parent}`,
    [parentIds, visible.adminOrganizationIds, visible.visibleIds],
  );
}

const INSERT = `insert into team_pipelines (id, team_id, pipeline_id, access_level, created_at)
  values ($1, $2, $3, $4, $5)`;

const insertValues = (teamPipeline: TeamPipeline) => [
  teamPipeline.id,
  teamPipeline.teamId,
  teamPipeline.pipelineId,
  teamPipeline.accessLevel,
  teamPipeline.createdAt,
];

export function teamPipelineRepository(sql: Sql): TeamPipelineRepository {
  return {
    async put(teamPipeline) {
      await sql.query(
        `${INSERT} on conflict (team_id, pipeline_id) do update set access_level = excluded.access_level`,
        insertValues(teamPipeline),
      );
    },
    async list({ teamId, visiblePipelineIds, offset, limit }) {
      const rows = await sql.query(
        `select ${TEAM_PIPELINE_COLUMNS} from team_pipelines tp join pipelines p on p.id = tp.pipeline_id
         where ${TEAM_SCOPE}
         order by tp.created_at, tp.pipeline_id offset $3 limit $4`,
        [teamId, visiblePipelineIds, offset, limit],
      );
      return rows.map(teamPipelineViewFromRow);
    },
    async count({ teamId, visiblePipelineIds }) {
      const [row] = await sql.query<{ count: number }>(
        `select count(*)::int as count from team_pipelines tp where ${TEAM_SCOPE}`,
        [teamId, visiblePipelineIds],
      );
      return row?.count ?? 0;
    },
    async find({ teamId, pipelineId }) {
      const [row] = await sql.query(
        `select ${TEAM_PIPELINE_COLUMNS} from team_pipelines tp join pipelines p on p.id = tp.pipeline_id
         where tp.team_id = $1 and tp.pipeline_id = $2`,
        [teamId, pipelineId],
      );
      return row ? teamPipelineViewFromRow(row) : null;
    },
    async insert(teamPipeline) {
      // The primary key (team, pipeline) settles concurrent adds: one row, the others insert nothing.
      try {
        const rows = await sql.query(
          `${INSERT} on conflict (team_id, pipeline_id) do nothing returning team_id`,
          insertValues(teamPipeline),
        );
        return rows.length > 0 ? 'inserted' : 'taken';
      } catch (error) {
        // The team or the pipeline was deleted between the request's reads and this insert.
        if (isForeignKeyViolation(error, 'team_pipelines_team_id_foreign')) return 'team_not_found';
        if (isForeignKeyViolation(error, 'team_pipelines_pipeline_id_foreign')) return 'pipeline_not_found';
        throw error;
      }
    },
    async update({ teamId, pipelineId, accessLevel }) {
      const [row] = await sql.query(
        `with tp as (
           update team_pipelines set access_level = $3 where team_id = $1 and pipeline_id = $2
           returning id, team_id, pipeline_id, access_level, created_at
         )
         select ${TEAM_PIPELINE_COLUMNS} from tp join pipelines p on p.id = tp.pipeline_id`,
        [teamId, pipelineId, accessLevel],
      );
      return row ? teamPipelineViewFromRow(row) : null;
    },
    async deleteUnlessLast({ teamId, pipelineId, allowLast = false }) {
      return sql.transaction(async (tx) => {
        // The pipeline's row lock serialises removals of its associations across processes. The count
        // is a statement of its own, so it reads what the removals committed before the lock was granted.
        const locked = await tx.query('select id from pipelines where id = $1 for no key update', [
          pipelineId,
        ]);
        if (locked.length === 0) return 'not_found';
        const [counts] = await tx.query<{ total: number; mine: number }>(
          `select count(*)::int as total, (count(*) filter (where team_id = $2))::int as mine
           from team_pipelines where pipeline_id = $1`,
          [pipelineId, teamId],
        );
        if (!counts || counts.mine === 0) return 'not_found';
        if (counts.total <= 1 && !allowLast) return 'last_team';
        await tx.query('delete from team_pipelines where team_id = $1 and pipeline_id = $2', [
          teamId,
          pipelineId,
        ]);
        return 'deleted';
      });
    },
    listOfTeams: ({ windows, visible }) => listOfParents(sql, 'team', windows, visible),
    countOfTeams: ({ teamIds, visible }) => countOfParents(sql, 'team', teamIds, visible),
    listOfPipelines: ({ windows, visible }) => listOfParents(sql, 'pipeline', windows, visible),
    countOfPipelines: ({ pipelineIds, visible }) => countOfParents(sql, 'pipeline', pipelineIds, visible),
  };
}
