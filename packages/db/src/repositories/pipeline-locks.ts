import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Locks a team's pipelines, or one pipeline, in one order: what removing an association decides under.
 * FOR NO KEY UPDATE, which MikroORM has no lock mode for: new builds' and jobs' foreign key checks (KEY
 * SHARE) do not wait for it. Answers how many it locked.
 */
export async function lockPipelines(
  em: EntityManager,
  of: { teamId: string } | { pipelineId: string },
): Promise<number> {
  const locked = await em.execute(
    'teamId' in of
      ? `select p.id from pipelines p where p.id in (select pipeline_id from team_pipelines where team_id = ?)
         order by p.id for no key update`
      : 'select p.id from pipelines p where p.id = ? for no key update',
    ['teamId' in of ? of.teamId : of.pipelineId],
  );
  return locked.length;
}
