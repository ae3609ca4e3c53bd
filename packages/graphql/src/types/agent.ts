import { builder } from '../builder';
import { ClusterQueueRef } from './cluster';
import { JobUnion } from './job';
import { JobNode } from './job-node';
import { OrganizationRef, organizationOf } from './organization';
import { AgentRef } from './refs';
import { ConnectionInterface } from './scalars';

builder.node(AgentRef, {
  description: 'An agent',
  id: { resolve: (agent) => agent.id },
  fields: (t) => ({
    uuid: t.exposeString('id', { nullable: false, description: 'The public UUID for the agent' }),
    name: t.exposeString('name', { nullable: false, description: 'The name of the agent' }),
    connectionState: t.exposeString('connectionState', {
      nullable: false,
      description: 'The connection state of the agent (REST `connection_state`)',
    }),
    hostname: t.exposeString('hostname', {
      nullable: true,
      description: 'The hostname of the machine running the agent',
    }),
    ipAddress: t.exposeString('ipAddress', {
      nullable: true,
      description: 'The IP address that the agent has connected from',
    }),
    userAgent: t.exposeString('userAgent', {
      nullable: true,
      description: 'The User-Agent of the program that is making Agent API requests',
    }),
    version: t.exposeString('version', {
      nullable: true,
      description: 'The version of the agent, as it registered',
    }),
    pid: t.exposeString('pid', {
      nullable: true,
      description: 'The process identifier (PID) of the agent process on the machine, as it registered',
    }),
    metaData: t.exposeStringList('tags', {
      nullable: true,
      description: 'The meta data this agent was started with (its tags)',
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The date the agent was created (registered)',
      resolve: (agent) => agent.createdAt,
    }),
    connectedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The time when the agent last connected',
      resolve: (agent) => agent.connectedAt,
    }),
    disconnectedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The time when the agent last disconnected',
      resolve: (agent) => agent.disconnectedAt,
    }),
    heartbeatAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The last time the agent performed a `heartbeat` operation to the Agent API',
      resolve: (agent) => agent.heartbeatAt,
    }),
    isRunningJob: t.boolean({
      nullable: false,
      description:
        'Whether this agent holds a job (assigned, accepted, running or canceling). If true but `job` is empty, the user may not see the job',
      resolve: async (agent, _args, ctx) => (await ctx.loaders.agentWork.load(agent.id)).isRunningJob,
    }),
    job: t.field({
      type: JobUnion,
      nullable: true,
      description: 'The job this agent holds, when the user may see it',
      resolve: async (agent, _args, ctx) => JobNode.of((await ctx.loaders.agentWork.load(agent.id)).job),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: (agent, _args, ctx) => organizationOf(agent.organizationId, ctx),
    }),
  }),
});

export const AgentConnection = builder.connectionObject(
  { type: AgentRef, name: 'AgentConnection', interfaces: [ConnectionInterface] },
  { name: 'AgentEdge' },
);

builder.objectField(OrganizationRef, 'agents', (t) =>
  t.connection(
    {
      type: AgentRef,
      description:
        'The agents of this organization, oldest first (every member may read them, with `read_agents`)',
      args: {
        search: t.arg.string({
          required: false,
          description: 'Search agents for the given query terms case insensitively across name and meta data',
        }),
        metaData: t.arg.stringList({
          required: false,
          description: 'Filter agents to those only having the matching meta data',
        }),
        isRunningJob: t.arg.boolean({
          required: false,
          description: 'Filter agents by whether they are running a job or not',
        }),
        clusterQueue: t.arg.idList({
          required: false,
          description: 'Only the agents of these cluster queues (their IDs or UUIDs)',
        }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.agents',
          parentId: organization.id,
          args,
          read: (window) =>
            ctx.useCases.listAgents(
              ctx.actor,
              organization.slug,
              {
                search: args.search,
                metaData: args.metaData,
                isRunningJob: args.isRunningJob,
                clusterQueues: args.clusterQueue?.map(String),
              },
              window,
            ),
        }),
    },
    AgentConnection,
  ),
);

// An extension (the public schema finds a queue's agents through `Organization.agents(clusterQueue:)`).
builder.objectField(ClusterQueueRef, 'agents', (t) =>
  t.connection(
    {
      type: AgentRef,
      description:
        "This queue's agents, oldest first (an extension; as `Organization.agents(clusterQueue:)`)",
      resolve: ({ queue, organizationSlug }, args, ctx) =>
        ctx.loaders.list({
          field: 'ClusterQueue.agents',
          parentId: queue.id,
          args,
          read: (window) =>
            ctx.useCases.listAgents(ctx.actor, organizationSlug, { clusterQueues: [queue.id] }, window),
        }),
    },
    AgentConnection,
  ),
);
