import type { BuildKeys, LookupRepository } from '@ci/application';
import { AgentEntity, toAgent } from '../entities/agent.entity';
import { OrganizationMemberEntity, toUser, UserEntity } from '../entities/organization.entity';
import { PipelineEntity, toPipeline } from '../entities/pipeline.entity';
import { RegistryEntity, toRegistry } from '../entities/registry.entity';
import {
  TeamEntity,
  TeamMemberEntity,
  TeamPipelineEntity,
  toTeam,
  toTeamMember,
} from '../entities/team.entity';
import type { EntityManagerSource } from '../orm';
import { toDateOrNull } from '../rows';
import type { Sql } from '../sql';
import { HELD_JOB_STATES } from './agent.repository';
import { BUILD_ROW_SELECT, complete } from './build.repository';
import { toOrganizationMember } from './organization-member.repository';
import { toTeamPipelineView } from './team-pipeline.repository';

/**
 * Reads by UUID for transports that address objects by id. Each is one statement over a list of ids (a
 * build adds its jobs and its pipeline's counts beside it), so a batch of ids costs what one id costs.
 * Entities come through the EntityManager; builds and jobs through the SQL of their repositories.
 */
export function lookupRepository(entityManager: EntityManagerSource, sql: Sql): LookupRepository {
  return {
    async builds({ ids, includeRetriedJobs }) {
      if (ids.length === 0) return [];
      const rows = await sql.query(`${BUILD_ROW_SELECT} where b.id = any($1::uuid[])`, [ids]);
      return complete(sql, rows, { includeRetriedJobs });
    },
    async jobBuilds(jobIds) {
      if (jobIds.length === 0) return [];
      const rows = await sql.query<{ id: string; build_id: string }>(
        'select id, build_id from jobs where id = any($1::uuid[])',
        [jobIds],
      );
      return rows.map((row) => ({ jobId: row.id, buildId: row.build_id }));
    },
    async buildPipelines(buildIds) {
      if (buildIds.length === 0) return [];
      return sql.query<BuildKeys>(
        `select b.id as "buildId", b.number, b.pipeline_id as "pipelineId", p.slug as "pipelineSlug",
           b.organization_id as "organizationId"
         from builds b join pipelines p on p.id = b.pipeline_id where b.id = any($1::uuid[])`,
        [buildIds],
      );
    },
    async pipelines(ids) {
      if (ids.length === 0) return [];
      const pipelines = await entityManager().find(
        PipelineEntity,
        { id: { $in: [...ids] } },
        { populate: ['createdBy'], strategy: 'joined' },
      );
      return pipelines.map((pipeline) => ({
        ...toPipeline(pipeline),
        createdBy: pipeline.createdBy ? toUser(pipeline.createdBy) : null,
      }));
    },
    async teams(ids) {
      if (ids.length === 0) return [];
      const teams = await entityManager().find(TeamEntity, { id: { $in: [...ids] } });
      return teams.map(toTeam);
    },
    async teamPipelines(ids) {
      if (ids.length === 0) return [];
      const teamPipelines = await entityManager().find(
        TeamPipelineEntity,
        { id: { $in: [...ids] } },
        { populate: ['pipeline'] },
      );
      return teamPipelines.map(toTeamPipelineView);
    },
    async registries(ids) {
      if (ids.length === 0) return [];
      const registries = await entityManager().find(RegistryEntity, { id: { $in: [...ids] } });
      return registries.map(toRegistry);
    },
    async users(ids) {
      if (ids.length === 0) return [];
      const users = await entityManager().find(
        UserEntity,
        { id: { $in: [...ids] } },
        { populate: ['memberships'], strategy: 'joined' },
      );
      return users.map((user) => ({
        user: toUser(user),
        organizationIds: user.memberships.map((membership) => membership.organization.id),
      }));
    },
    async organizationMembers(ids) {
      if (ids.length === 0) return [];
      const members = await entityManager().find(
        OrganizationMemberEntity,
        { id: { $in: [...ids] } },
        { populate: ['user'] },
      );
      return members.map(toOrganizationMember);
    },
    async teamMembers(ids) {
      if (ids.length === 0) return [];
      const members = await entityManager().find(TeamMemberEntity, { id: { $in: [...ids] } });
      return members.map(toTeamMember);
    },
    async agents(ids) {
      if (ids.length === 0) return [];
      const agents = await entityManager().find(AgentEntity, { id: { $in: [...ids] } });
      return agents.map(toAgent);
    },
    async heldJobs(agentIds) {
      if (agentIds.length === 0) return [];
      // The held states are those of the partial unique index: at most one job per agent.
      const rows = await sql.query<{
        id: string;
        organization_id: string;
        job_id: string | null;
        build_id: string | null;
        last_job_finished_at: Date | string | null;
      }>(
        `select a.id, a.organization_id, j.id as job_id, j.build_id,
           (select max(f.finished_at) from jobs f
            where f.agent_id = a.id and f.finished_at is not null) as last_job_finished_at
         from agents a
         left join jobs j on j.agent_id = a.id and j.state in ${HELD_JOB_STATES}
         where a.id = any($1::uuid[])`,
        [agentIds],
      );
      return rows.map((row) => ({
        agentId: row.id,
        organizationId: row.organization_id,
        held: row.job_id && row.build_id ? { jobId: row.job_id, buildId: row.build_id } : null,
        lastJobFinishedAt: toDateOrNull(row.last_job_finished_at),
      }));
    },
    async retrySources(jobIds) {
      if (jobIds.length === 0) return [];
      // A retry's source is in its build: read through the builds' jobs (indexed), not every job.
      const rows = await sql.query<{ id: string; retried_in_job_id: string; build_id: string }>(
        `select s.id, s.retried_in_job_id, s.build_id from jobs s
         where s.build_id in (select j.build_id from jobs j where j.id = any($1::uuid[]))
           and s.retried_in_job_id = any($1::uuid[])`,
        [jobIds],
      );
      return rows.map((row) => ({ jobId: row.retried_in_job_id, sourceId: row.id, buildId: row.build_id }));
    },
  };
}
