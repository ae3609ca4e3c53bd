import { builder } from '../builder';
import { JobConnection, JobStates, JobTypes, JobUnion } from './job';
import { JobNode, jobStatesNamed } from './job-node';
import { OrganizationRef } from './organization';

builder.objectField(OrganizationRef, 'jobs', (t) =>
  t.connection(
    {
      type: JobUnion,
      nullable: true,
      description:
        "The jobs of this organization's builds (their latest runs), newest first, of the pipelines the user may see (`read_builds`)",
      args: {
        type: t.arg({ type: [JobTypes], required: false, description: 'Filter the jobs by their type' }),
        state: t.arg({ type: [JobStates], required: false, description: 'Filter the jobs by their state' }),
        agentQueryRules: t.arg.stringList({
          required: false,
          description: 'Only the jobs whose agent query rules include every one of these (`queue=deploy`)',
        }),
        clusterQueue: t.arg.idList({
          required: false,
          description: 'Only the jobs of these cluster queues (their IDs or UUIDs)',
        }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.jobs',
          parentId: organization.id,
          args,
          read: async (window) => {
            const { items, totalCount } = await ctx.useCases.listOrganizationJobs(
              ctx.actor,
              organization.slug,
              {
                types: args.type ?? null,
                states: args.state ? jobStatesNamed(args.state) : null,
                agentQueryRules: args.agentQueryRules ?? null,
                clusterQueues: args.clusterQueue ?? null,
              },
              window,
            );
            return { items: items.map((job) => JobNode.of(job)), totalCount };
          },
        }),
    },
    JobConnection,
  ),
);
