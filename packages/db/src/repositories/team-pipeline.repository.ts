import type {
  AssociationOrder,
  ParentCount,
  ParentWindow,
  TeamPipelineRepository,
  TeamPipelineView,
  VisibleAcrossOrganizations,
} from '@ci/application';
import type { InferEntity } from '@mikro-orm/core';
import { type EntityManager, ForeignKeyConstraintViolationException } from '@mikro-orm/postgresql';
import { toPipeline } from '../entities/pipeline.entity';
import { TeamPipelineEntity, toTeamPipeline } from '../entities/team.entity';
import { converted, type EntityManagerSource, updateReturning, violates } from '../orm';
import { likeLiteral } from '../sql';
import { inParentWindows } from './parent-windows';
import { lockPipelines } from './pipeline-locks';

/** An association read with its pipeline (`populate: ['pipeline']`). */
export function toTeamPipelineView(teamPipeline: InferEntity<typeof TeamPipelineEntity>): TeamPipelineView {
  return {
    teamPipeline: toTeamPipeline(teamPipeline),
    pipelineSlug: teamPipeline.pipeline.slug,
    pipeline: toPipeline(teamPipeline.pipeline),
  };
}

/** For a batched list: the column each parent's window is taken on, and the one `visibleIds` names. */
const BY_PARENT = {
  team: { parent: 'team', other: 'pipeline', column: 'team_id', otherColumn: 'pipeline_id' },
  pipeline: { parent: 'pipeline', other: 'team', column: 'pipeline_id', otherColumn: 'team_id' },
} as const;

type Parent = keyof typeof BY_PARENT;

/**
 * What `visible` covers: the pipelines of the organizations where the viewer is an admin, and elsewhere
 * the pipelines (of a team's list) or teams (of a pipeline's list) in `visibleIds`.
 */
function visibleWhere(of: Parent, visible: VisibleAcrossOrganizations) {
  return {
    $or: [
      { pipeline: { organization: { $in: visible.adminOrganizationIds } } },
      { [BY_PARENT[of].other]: { $in: visible.visibleIds } },
    ],
  };
}

/** Each order in the window's SQL and in MikroORM's terms, the same order both ways. */
function ordered(of: Parent, order: AssociationOrder) {
  const { other, otherColumn } = BY_PARENT[of];
  const otherName = of === 'pipeline' ? 't.name' : 'p.name';
  switch (order) {
    case 'oldest':
      return {
        sql: `tp.created_at, tp.${otherColumn}`,
        orm: [{ [of]: 'asc' }, { createdAt: 'asc' }, { [other]: 'asc' }],
      };
    case 'newest':
      return {
        sql: `tp.created_at desc, tp.${otherColumn} desc`,
        orm: [{ [of]: 'asc' }, { createdAt: 'desc' }, { [other]: 'desc' }],
      };
    case 'name':
      return {
        sql: `${otherName}, tp.${otherColumn}`,
        orm: [{ [of]: 'asc' }, { [other]: { name: 'asc' } }, { [other]: 'asc' }],
      };
  }
}

async function listOfParents(
  em: EntityManager,
  of: Parent,
  windows: readonly ParentWindow[],
  visible: VisibleAcrossOrganizations,
  order: AssociationOrder = 'oldest',
  search?: string,
): Promise<TeamPipelineView[]> {
  if (windows.every((window) => window.limit === 0)) return [];
  const { column, otherColumn } = BY_PARENT[of];
  const sorted = ordered(of, order);
  const array = (ids: string[]) => em.getPlatform().marshallArray(ids);
  // Only a pipeline's list is searched (by team name).
  const teamName = of === 'pipeline' && search ? `%${likeLiteral(search)}%` : null;
  const teamPipelines = await em.find(
    TeamPipelineEntity,
    {
      [inParentWindows(
        windows,
        `select tp.id from team_pipelines tp join pipelines p on p.id = tp.pipeline_id
         ${(order === 'name' || teamName) && of === 'pipeline' ? 'join teams t on t.id = tp.team_id' : ''}
         where tp.${column} = w.parent_id
           and (p.organization_id = any(?::uuid[]) or tp.${otherColumn} = any(?::uuid[]))
           ${teamName ? 'and t.name ilike ?' : ''}
         order by ${sorted.sql} offset w.off limit w.lim`,
        [array(visible.adminOrganizationIds), array(visible.visibleIds), ...(teamName ? [teamName] : [])],
      )]: [],
    },
    { populate: ['pipeline'], orderBy: sorted.orm as never },
  );
  return teamPipelines.map(toTeamPipelineView);
}

async function countOfParents(
  em: EntityManager,
  of: Parent,
  parentIds: readonly string[],
  visible: VisibleAcrossOrganizations,
  search?: string,
): Promise<ParentCount[]> {
  if (parentIds.length === 0) return [];
  const teamName =
    of === 'pipeline' && search ? { team: { name: { $ilike: `%${likeLiteral(search)}%` } } } : {};
  const counts = await em.countBy(TeamPipelineEntity, BY_PARENT[of].parent, {
    where: { [of]: { $in: [...parentIds] }, ...visibleWhere(of, visible), ...teamName },
  });
  return Object.entries(counts).map(([parentId, count]) => ({ parentId, count }));
}

/** A team's associations; `visiblePipelineIds` null: every one, otherwise those of these pipelines. */
function ofTeam(teamId: string, visiblePipelineIds: string[] | null) {
  return { team: teamId, ...(visiblePipelineIds ? { pipeline: { $in: visiblePipelineIds } } : {}) };
}

export function teamPipelineRepository(entityManager: EntityManagerSource): TeamPipelineRepository {
  return {
    async put({ teamId, pipelineId, ...teamPipeline }) {
      const em = entityManager();
      await converted(
        em,
        em
          .createQueryBuilder(TeamPipelineEntity)
          .insert({ ...teamPipeline, team: teamId, pipeline: pipelineId })
          .onConflict(['team', 'pipeline'])
          .merge(['accessLevel'])
          .execute('run'),
      );
    },
    async list({ teamId, visiblePipelineIds, offset, limit }) {
      const teamPipelines = await entityManager().find(
        TeamPipelineEntity,
        ofTeam(teamId, visiblePipelineIds),
        {
          populate: ['pipeline'],
          orderBy: { createdAt: 'asc', pipeline: 'asc' },
          offset,
          limit,
        },
      );
      return teamPipelines.map(toTeamPipelineView);
    },
    count: ({ teamId, visiblePipelineIds }) =>
      entityManager().count(TeamPipelineEntity, ofTeam(teamId, visiblePipelineIds)),
    async find({ teamId, pipelineId }) {
      // Refreshed: the unit of work may hold it from before a change or a removal.
      const teamPipeline = await entityManager().findOne(
        TeamPipelineEntity,
        { team: teamId, pipeline: pipelineId },
        { populate: ['pipeline'], refresh: true },
      );
      return teamPipeline ? toTeamPipelineView(teamPipeline) : null;
    },
    async insert({ teamId, pipelineId, ...teamPipeline }) {
      const em = entityManager();
      try {
        // The primary key (team, pipeline) settles concurrent adds: one row, the others insert nothing.
        const inserted = await converted(
          em,
          em
            .createQueryBuilder(TeamPipelineEntity)
            .insert({ ...teamPipeline, team: teamId, pipeline: pipelineId })
            .onConflict(['team', 'pipeline'])
            .ignore()
            .execute('run'),
        );
        return inserted.affectedRows > 0 ? 'inserted' : 'taken';
      } catch (error) {
        // The team or the pipeline was deleted between the request's reads and this insert.
        const deleted = (constraint: string) =>
          violates(error, ForeignKeyConstraintViolationException, constraint);
        if (deleted('team_pipelines_team_id_foreign')) return 'team_not_found';
        if (deleted('team_pipelines_pipeline_id_foreign')) return 'pipeline_not_found';
        throw error;
      }
    },
    async update({ teamId, pipelineId, accessLevel }) {
      const em = entityManager();
      const key = { team: teamId, pipeline: pipelineId };
      const teamPipeline = await updateReturning(em, TeamPipelineEntity, key, { accessLevel });
      if (!teamPipeline) return null;
      await em.populate(teamPipeline, ['pipeline']);
      return toTeamPipelineView(teamPipeline);
    },
    deleteUnlessLast({ teamId, pipelineId, allowLast = false }) {
      return entityManager().transactional(async (em) => {
        // The pipeline's row lock serialises removals of its associations across processes. The count
        // is a statement of its own, so it reads what the removals committed before the lock was granted.
        if ((await lockPipelines(em, { pipelineId })) === 0) return 'not_found';
        const byTeam = await em.countBy(TeamPipelineEntity, 'team', { where: { pipeline: pipelineId } });
        const total = Object.values(byTeam).reduce((sum, count) => sum + count, 0);
        if (!byTeam[teamId]) return 'not_found';
        if (total <= 1 && !allowLast) return 'last_team';
        await em.nativeDelete(TeamPipelineEntity, { team: teamId, pipeline: pipelineId });
        return 'deleted';
      });
    },
    listOfTeams: ({ windows, visible }) => listOfParents(entityManager(), 'team', windows, visible),
    countOfTeams: ({ teamIds, visible }) => countOfParents(entityManager(), 'team', teamIds, visible),
    listOfPipelines: ({ windows, visible, order, search }) =>
      listOfParents(entityManager(), 'pipeline', windows, visible, order, search),
    countOfPipelines: ({ pipelineIds, visible, search }) =>
      countOfParents(entityManager(), 'pipeline', pipelineIds, visible, search),
  };
}
