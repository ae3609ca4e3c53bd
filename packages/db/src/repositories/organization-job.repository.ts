import type { OrganizationJobRepository, OrganizationJobScope } from '@ci/application';
import { JobEntity } from '../entities/build.entity';
import type { EntityManagerSource } from '../orm';

/** The latest runs of an organization's jobs, narrowed by the scope's pipelines and filter. */
function inScope({ organizationId, pipelineIds, filter }: OrganizationJobScope) {
  return {
    retried: false,
    build: {
      organization: organizationId,
      ...(pipelineIds === null ? {} : { pipeline: { $in: [...pipelineIds] } }),
    },
    ...(filter.types ? { type: { $in: [...filter.types] } } : {}),
    ...(filter.states ? { state: { $in: [...filter.states] } } : {}),
    ...(filter.agentQueryRules?.length
      ? { agentQueryRules: { $contains: [...filter.agentQueryRules] } }
      : {}),
    ...(filter.clusterQueueIds ? { clusterQueueId: { $in: [...filter.clusterQueueIds] } } : {}),
  };
}

export function organizationJobRepository(entityManager: EntityManagerSource): OrganizationJobRepository {
  return {
    async list({ offset, limit, ...scope }) {
      const jobs = await entityManager().find(JobEntity, inScope(scope), {
        fields: ['id', 'build'],
        orderBy: { createdAt: 'desc', id: 'desc' },
        limit,
        offset,
      });
      return jobs.map((job) => ({ jobId: job.id, buildId: job.build.id }));
    },
    count: (scope) => entityManager().count(JobEntity, inScope(scope)),
  };
}
