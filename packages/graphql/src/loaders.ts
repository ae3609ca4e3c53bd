import type {
  Actor,
  AgentTokenView,
  AgentWork,
  ClusterQueueView,
  ClusterTokenView,
  ClusterView,
  ListPart,
  OrganizationMember,
  PartRequest,
  PipelineScheduleView,
  PipelineSeen,
  PipelineTemplateView,
  RegistryView,
  RowWindow,
  RuleView,
  SuiteView,
  TeamMemberResult,
  TeamPipelineResult,
  TeamSuiteView,
  UseCases,
} from '@ci/application';
import type {
  Agent,
  Annotation,
  Artifact,
  Organization,
  OrganizationBanner,
  OrganizationInvitation,
  Pipeline,
  PipelineAccess,
  Team,
  User,
} from '@ci/domain';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import {
  type ConnectionArgs,
  type ConnectionResult,
  resolveConnection,
  resolveConnections,
  selectsCount,
} from './connection';
import { BuildNode } from './types/build-node';
import { JobNode } from './types/job-node';

/**
 * One set per request: each batches the ids a resolver level asks for into one use case call, and
 * remembers the answers for the rest of the request, so a page of 100 builds costs what one costs.
 * The use cases decide visibility; a loader only batches them.
 */
export interface Loaders {
  builds: DataLoader<string, BuildNode | null>;
  jobs: DataLoader<string, JobNode | null>;
  registries: DataLoader<string, RegistryView | null>;
  clusters: DataLoader<string, ClusterView | null>;
  clusterQueues: DataLoader<string, ClusterQueueView | null>;
  clusterTokens: DataLoader<string, ClusterTokenView | null>;
  teamPipelines: DataLoader<string, TeamPipelineResult | null>;
  /** The actor's organizations, for objects that show theirs (no scope of their own, as REST embeds them). */
  organizations: DataLoader<string, Organization | null>;
  /** Organizations read for themselves (`node`): `read_organizations`. */
  readableOrganizations: DataLoader<string, Organization | null>;
  organizationMembers: DataLoader<string, OrganizationMember | null>;
  pipelines: DataLoader<string, PipelineSeen | null>;
  teams: DataLoader<string, Team | null>;
  teamMembers: DataLoader<string, TeamMemberResult | null>;
  /** Users read for themselves (`node`): each with its own scope. */
  users: DataLoader<string, User | null>;
  /** The people objects point at (creators, team members): shown with the object. */
  people: DataLoader<string, User | null>;
  pipelineAccess: DataLoader<Pick<Pipeline, 'id' | 'organizationId'>, PipelineAccess, string>;
  /** Agents read for themselves (`node`, `agent`): `read_agents`. */
  agents: DataLoader<string, Agent | null>;
  /** Agent tokens (`node`): organization admins, `read_agents`. */
  agentTokens: DataLoader<string, AgentTokenView | null>;
  /** Banners (`node`): every member of their organization. */
  banners: DataLoader<string, OrganizationBanner | null>;
  /** Invitations (`node`): admins of their organization. */
  invitations: DataLoader<string, OrganizationInvitation | null>;
  /** Rules (`node`): organization admins, `read_rules`. */
  rules: DataLoader<string, RuleView | null>;
  /** Pipeline templates (`node`): admins all, members the available ones. */
  pipelineTemplates: DataLoader<string, PipelineTemplateView | null>;
  /** Schedules (`node`, a build's source): those of pipelines the viewer reads, `read_pipelines`. */
  pipelineSchedules: DataLoader<string, PipelineScheduleView | null>;
  /** Each pipeline's schedules (`Pipeline.schedules`), oldest first: `read_pipelines`. */
  schedulesOfPipelines: DataLoader<string, PipelineScheduleView[]>;
  /** The schedule that made each build (its id), null for the builds no schedule made. */
  scheduleOfBuild: DataLoader<string, string | null>;
  /** Test suites and team suites (`read_suites`): every member of their organization. */
  suites: DataLoader<string, SuiteView | null>;
  teamSuites: DataLoader<string, TeamSuiteView | null>;
  /** Artifacts (`node`, `artifact`): those of builds the viewer sees, `read_artifacts`. */
  artifacts: DataLoader<string, Artifact | null>;
  /** Annotations (`node`): those of builds the viewer sees, `read_builds`. */
  annotations: DataLoader<string, Annotation | null>;
  /** What agents do: whether each holds a job, and the job when the actor may see it. */
  agentWork: DataLoader<string, AgentWork>;
  /** The run each job retried (`retrySource`). */
  retrySources: DataLoader<string, JobNode | null>;
  /**
   * The connection `field` of one parent with these arguments, read once per request (a page whose items
   * share a parent, such as builds of one organization, asks for it again with every item).
   */
  list<T>(input: ListInput<T>): Promise<ConnectionResult<T>>;
  /**
   * The connection `field` with these arguments of every parent a page asks it of, read together: the
   * use case `read` answers each parent's window at once, so a page costs what one parent costs. The
   * lists are counted only when the client selects `count` (seen in `info`).
   */
  connection<T, P>(input: ConnectionInput<T, P>): DataLoader<P, ConnectionResult<T>, string>;
}

/** One parent's connection, read by a use case that answers a window and the list's total. */
interface ListInput<T> {
  field: string;
  parentId: string;
  args: ConnectionArgs;
  read: (window: RowWindow) => Promise<{ items: readonly T[]; totalCount: number }>;
}

/**
 * The connections of a page's parents, read by one batched use case. Parents are what the page holds
 * (ids, or objects that `read` gets as they are); `idOf` gives each one's id.
 */
interface ConnectionInput<T, P> {
  field: string;
  args: ConnectionArgs;
  info: GraphQLResolveInfo;
  read: (requests: readonly PartRequest[], parents: readonly P[]) => Promise<Array<ListPart<T>>>;
  idOf: (parent: P) => string;
}

export function createLoaders(useCases: UseCases, actor: Actor): Loaders {
  const byId = useCases.byId;
  const lists = new Map<string, Promise<unknown>>();
  const connections = new Map<string, DataLoader<unknown, unknown, string>>();
  return {
    builds: new DataLoader(async (ids) =>
      (await byId.builds(actor, ids)).map((build) => BuildNode.of(build)),
    ),
    jobs: new DataLoader(async (ids) => (await byId.jobs(actor, ids)).map((job) => JobNode.of(job))),
    registries: new DataLoader((ids) => byId.registries(actor, ids)),
    clusters: new DataLoader((ids) => byId.clusters(actor, ids)),
    clusterQueues: new DataLoader((ids) => byId.clusterQueues(actor, ids)),
    clusterTokens: new DataLoader((ids) => byId.clusterTokens(actor, ids)),
    teamPipelines: new DataLoader((ids) => byId.teamPipelines(actor, ids)),
    organizations: new DataLoader((ids) => byId.organizations(actor, ids)),
    readableOrganizations: new DataLoader((ids) => byId.readableOrganizations(actor, ids)),
    organizationMembers: new DataLoader((ids) => byId.organizationMembers(actor, ids)),
    pipelines: new DataLoader((ids) => byId.pipelines(actor, ids)),
    teams: new DataLoader((ids) => byId.teams(actor, ids)),
    teamMembers: new DataLoader((ids) => byId.teamMembers(actor, ids)),
    users: new DataLoader<string, User | null>((ids) => byId.users(actor, ids)),
    people: new DataLoader((ids) => byId.people(actor, ids)),
    pipelineAccess: new DataLoader((pipelines) => byId.pipelineAccess(actor, pipelines), {
      cacheKeyFn: (pipeline) => pipeline.id,
    }),
    agents: new DataLoader((ids) => byId.agents(actor, ids)),
    agentTokens: new DataLoader((ids) => byId.agentTokens(actor, ids)),
    banners: new DataLoader((ids) => byId.bannersById(actor, ids)),
    invitations: new DataLoader((ids) => byId.invitationsById(actor, ids)),
    rules: new DataLoader((ids) => byId.rules(actor, ids)),
    pipelineTemplates: new DataLoader((ids) => byId.pipelineTemplates(actor, ids)),
    pipelineSchedules: new DataLoader((ids) => byId.pipelineSchedules(actor, ids)),
    // A refusal in the batch (an unseen pipeline) rejects that pipeline's load alone.
    schedulesOfPipelines: new DataLoader<string, PipelineScheduleView[]>((pipelineIds) =>
      byId.schedulesOfPipelines(actor, pipelineIds),
    ),
    scheduleOfBuild: new DataLoader(async (buildIds) => {
      const made = await byId.schedulesOfBuilds(buildIds);
      return buildIds.map((id) => made.get(id) ?? null);
    }),
    suites: new DataLoader((ids) => byId.suites(actor, ids)),
    teamSuites: new DataLoader((ids) => byId.teamSuites(actor, ids)),
    artifacts: new DataLoader((ids) => byId.artifacts(actor, ids)),
    annotations: new DataLoader((ids) => byId.annotations(actor, ids)),
    agentWork: new DataLoader((ids) => byId.workOfAgents(actor, ids)),
    retrySources: new DataLoader(async (ids) =>
      (await byId.retrySources(actor, ids)).map((job) => JobNode.of(job)),
    ),
    list<T>({ field, parentId, args, read }: ListInput<T>): Promise<ConnectionResult<T>> {
      const key = `${field}:${parentId}:${JSON.stringify(args)}`;
      let found = lists.get(key) as Promise<ConnectionResult<T>> | undefined;
      if (!found) {
        found = resolveConnection(args, read);
        lists.set(key, found);
      }
      return found;
    },
    connection<T, P>({
      field,
      args,
      info,
      read,
      idOf,
    }: ConnectionInput<T, P>): DataLoader<P, ConnectionResult<T>, string> {
      const withTotal = selectsCount(info);
      const key = `${field}:${withTotal}:${JSON.stringify(args)}`;
      let loader = connections.get(key) as DataLoader<P, ConnectionResult<T>, string> | undefined;
      if (!loader) {
        loader = new DataLoader<P, ConnectionResult<T>, string>(
          (parents) =>
            resolveConnections({
              args,
              parentIds: parents.map(idOf),
              withTotal,
              read: (requests) => read(requests, parents),
            }),
          { cacheKeyFn: idOf },
        );
        connections.set(key, loader as DataLoader<unknown, unknown, string>);
      }
      return loader;
    },
  };
}
