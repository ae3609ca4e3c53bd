import type {
  AccessLevel,
  AccessToken,
  Agent,
  Build,
  BuildState,
  Cluster,
  ClusterChanges,
  ClusterPlacement,
  ClusterQueue,
  ClusterQueueChanges,
  ClusterToken,
  ClusterTokenChanges,
  HeldKey,
  Job,
  JobState,
  JobType,
  KeptResponse,
  Organization,
  OrganizationBanner,
  OrganizationInvitation,
  OrganizationRole,
  Pipeline,
  PipelineListFilter,
  Registry,
  RegistryChanges,
  Team,
  TeamChanges,
  TeamMember,
  TeamMemberRole,
  TeamPipeline,
  TeamPrivacy,
  User,
  WebSession,
} from '@ci/domain';
import type { AgentRepository, BuildMetaDataRepository, JobRepository } from './agents/agent-ports';
import type { AgentTimings } from './agents/agent-protocol';
import type { AnnotationRepository } from './annotations/annotation-ports';
import type { ArtifactRepository, ArtifactSettings } from './artifacts/artifact-ports';
import type {
  BadgeRepository,
  PipelineTriggerRepository,
  SourceWebhookRepository,
} from './inbound/inbound-ports';
import type { NotificationServiceRepository } from './notifications/notification-ports';
import type { PipelineScheduleRepository } from './pipeline-schedules/pipeline-schedule-ports';
import type { PipelineTemplateRepository } from './pipeline-templates/pipeline-template-ports';
import type { RuleRepository } from './rules/rule-ports';
import type { SuiteRepository } from './suites/suite-ports';

/** The application's view of the outside world; packages/db implements these against PostgreSQL. */

export interface Clock {
  now(): Date;
}

export interface AccessTokenRepository {
  /** The token with this hash and its user, revoked and expired ones included (the caller decides). */
  findByHash(tokenHash: string): Promise<{ token: AccessToken; user: User } | null>;
  /** The token with this id and its user, revoked and expired ones included. */
  findById(id: string): Promise<{ token: AccessToken; user: User } | null>;
  insert(token: AccessToken): Promise<void>;
  /** false when no such unrevoked token exists */
  revoke(id: string, at: Date): Promise<boolean>;
}

export interface WebSessionRepository {
  insert(session: WebSession): Promise<void>;
  /** The session with this hash, its token and the token's user; expired ones included (the caller decides). */
  findByHash(sessionHash: string): Promise<{ session: WebSession; token: AccessToken; user: User } | null>;
  /** Removes the sessions that expired before `at`. */
  deleteExpired(at: Date): Promise<void>;
  /** Ends the session with this hash; nothing when there is none. */
  deleteByHash(sessionHash: string): Promise<void>;
}

export interface UserRepository {
  findByEmail(email: string): Promise<User | null>;
  insert(user: User): Promise<void>;
}

export interface OrganizationRepository {
  findBySlug(slug: string): Promise<Organization | null>;
  insert(organization: Organization): Promise<void>;
  /**
   * Adds the user (`added`), or changes the role of an existing member (`id` names a new membership). A new
   * member also joins `teamsIfNew` in the same statement; an existing one's teams stay as they are.
   */
  putMember(input: {
    id: string;
    organizationId: string;
    userId: string;
    role: OrganizationRole;
    at: Date;
    teamsIfNew?: ReadonlyArray<{ id: string; teamId: string; role: TeamMemberRole }>;
  }): Promise<'added' | 'changed'>;
  countAll(): Promise<number>;
}

/** A team with the user its wire form names as `created_by` (null: made by the CLI, or the user is gone). */
export interface TeamView {
  team: Team;
  createdBy: User | null;
}

/** A membership with the name its wire form shows. */
export interface TeamMemberView {
  member: TeamMember;
  userName: string;
}

/** What the team visibility rule needs to know about one team for one user. */
export interface TeamViewerFacts {
  teamId: string;
  privacy: TeamPrivacy;
  /** the user's role in the team; null when not in it */
  viewerRole: TeamMemberRole | null;
}

/** A member of an organization: the user, their role, and when they joined. */
export interface OrganizationMember {
  /** the membership's own id (its GraphQL `OrganizationMember` id) */
  id: string;
  organizationId: string;
  user: User;
  role: OrganizationRole;
  createdAt: Date;
}

/** Which members a list covers: `email` exactly, `search` in the name or email (both any case); null: any. */
export interface OrganizationMemberScope {
  organizationId: string;
  email: string | null;
  search: string | null;
}

export interface OrganizationMemberRepository {
  /** A page of the organization's members, longest-standing first (then user id). */
  list(input: OrganizationMemberScope & { offset: number; limit: number }): Promise<OrganizationMember[]>;
  /** How many members the list covers, for the `last` page link. */
  count(input: OrganizationMemberScope): Promise<number>;
}

export interface TeamRepository {
  findBySlug(organizationId: string, slug: string): Promise<Team | null>;
  /** The organization's team with its creator and the user's role in it, in one round trip; null: no such team. */
  findForViewer(input: {
    organizationId: string;
    teamId: string;
    userId: string;
  }): Promise<{ view: TeamView; viewerRole: TeamMemberRole | null } | null>;
  /** Every team of these organizations with the user's role in it, for lists the visibility rule filters. */
  viewerFacts(input: { organizationIds: readonly string[]; userId: string }): Promise<TeamViewerFacts[]>;
  /**
   * A page of the organization's teams, oldest first; `visibleTeamIds` null: every one;
   * `memberUserId`: only teams that user is in.
   */
  list(input: TeamListScope & { offset: number; limit: number }): Promise<TeamView[]>;
  /** How many teams the list covers, for the `last` page link. */
  count(input: TeamListScope): Promise<number>;
  /** 'slug_taken' when the organization has a team with this slug, however close the race. */
  insert(team: Team): Promise<'inserted' | 'slug_taken'>;
  /** The team as changed; 'slug_taken' as for insert; 'not_found' when it no longer exists. */
  update(input: { id: string; changes: TeamChanges }): Promise<TeamView | 'slug_taken' | 'not_found'>;
  /**
   * Deletes the team with its memberships and associations, unless it is the only team of some
   * pipelines (then how many), deciding under the same pipeline row locks as removing an association.
   */
  deleteUnlessLastTeam(teamId: string): Promise<'deleted' | 'not_found' | { lastTeamOf: number }>;
  /** The organization's default teams (`is_default_team`), which new members of the organization join. */
  defaultTeams(organizationId: string): Promise<Team[]>;
  /** Adds the user, or changes the role of an existing member (CLI and seed; `id` names a new membership). */
  putMember(input: {
    id: string;
    teamId: string;
    userId: string;
    role: TeamMemberRole;
    at: Date;
  }): Promise<void>;
  /** A page of the team's members, oldest membership first. */
  listMembers(input: { teamId: string; offset: number; limit: number }): Promise<TeamMemberView[]>;
  countMembers(teamId: string): Promise<number>;
  findMember(input: { teamId: string; userId: string }): Promise<TeamMemberView | null>;
  /**
   * Adds a member of the organization to the team. The (team, user) key decides 'taken', however close
   * the race; 'not_in_organization' covers unknown users too; 'team_not_found': deleted meanwhile.
   */
  insertMember(input: {
    organizationId: string;
    member: TeamMember;
  }): Promise<TeamMemberView | 'not_in_organization' | 'taken' | 'team_not_found'>;
  /** The changed membership; null when it does not exist. */
  updateMember(input: {
    teamId: string;
    userId: string;
    role: TeamMemberRole;
  }): Promise<TeamMemberView | null>;
  /** false when the user is not in the team */
  deleteMember(input: { teamId: string; userId: string }): Promise<boolean>;
  /** A window of each team's members, oldest membership first, in one statement. */
  listMembersOfTeams(windows: readonly ParentWindow[]): Promise<TeamMember[]>;
  /** How many members each of these teams has (teams without any are left out). */
  countMembersOfTeams(teamIds: readonly string[]): Promise<ParentCount[]>;
}

/** A window of the list of one parent (a pipeline's builds, a team's members), for lists read in batches. */
export interface ParentWindow {
  parentId: string;
  offset: number;
  limit: number;
}

/** How many items the list of one parent has. */
export interface ParentCount {
  parentId: string;
  count: number;
}

/**
 * What lists spanning several organizations cover: everything of the organizations where the viewer is
 * an admin, and elsewhere only these objects (the pipelines or teams the domain's rules let them see).
 */
export interface VisibleAcrossOrganizations {
  adminOrganizationIds: string[];
  visibleIds: string[];
}

/** Which teams a list covers. */
export interface TeamListScope {
  organizationId: string;
  visibleTeamIds: string[] | null;
  memberUserId: string | null;
  /** a part of the name, any case; null: every name */
  search?: string | null;
}

export interface PipelineRepository {
  findBySlug(organizationId: string, slug: string): Promise<Pipeline | null>;
  /** The organization's pipeline with this id (a lowercase UUID), or null. */
  findById(organizationId: string, id: string): Promise<Pipeline | null>;
  insert(pipeline: Pipeline): Promise<void>;

  /** A page of the organization's pipelines, oldest first; `visiblePipelineIds` null: every one. */
  list(input: PipelineListScope & { offset: number; limit: number }): Promise<PipelineRecord[]>;
  /** How many pipelines the list covers, for the `last` page link. */
  count(input: PipelineListScope): Promise<number>;
  /** The pipeline with its counts and creator, or null. */
  findRecord(id: string): Promise<PipelineRecord | null>;
  /** The organization's teams among `teamIds`, and whether the user is a member of each. */
  teamsIn(input: {
    organizationId: string;
    teamIds: string[];
    userId: string;
  }): Promise<
    Array<{ teamId: string; viewerRole: TeamMemberRole | null; membersCanCreatePipelines: boolean }>
  >;
  /**
   * Inserts the pipeline and its team associations in one transaction. 'slug_taken' when the
   * organization has a pipeline with this slug, however close the race; 'team_not_found' when a team
   * vanished meanwhile, 'template_not_found' when its pipeline template did (nothing is written then).
   */
  create(input: {
    pipeline: Pipeline;
    teams: TeamPipeline[];
  }): Promise<'created' | 'slug_taken' | 'team_not_found' | 'template_not_found'>;
  /**
   * Changes the pipeline under a row lock: `change` sees the current row and returns the new one (or
   * throws, which changes nothing), so concurrent changes apply one after the other.
   * 'template_not_found': the pipeline template the change names was deleted meanwhile.
   */
  update(input: {
    id: string;
    change: (current: Pipeline) => Pipeline;
  }): Promise<Pipeline | 'not_found' | 'slug_taken' | 'template_not_found'>;
  /** Deletes the pipeline with its builds, jobs and team associations; false when it does not exist. */
  delete(id: string): Promise<boolean>;
}

/** Which pipelines of an organization a list covers. */
export interface PipelineListScope {
  organizationId: string;
  /** null: every pipeline (an admin); otherwise only these (what a member may see) */
  visiblePipelineIds: string[] | null;
  filter: PipelineListFilter;
}

/** A pipeline with what its wire form needs besides: live counts and the user who created it. */
export interface PipelineRecord {
  pipeline: Pipeline & { counts: PipelineCounts };
  createdBy: User | null;
}

/** A team/pipeline association with what its wire form needs of the pipeline. */
export interface TeamPipelineView {
  teamPipeline: TeamPipeline;
  pipelineSlug: string;
  pipeline: Pipeline;
}

/** The order of a list of associations: by creation (ties by the other side's id) or by the other side's name. */
export type AssociationOrder = 'oldest' | 'newest' | 'name';

export interface TeamPipelineRepository {
  /** Adds the association, or changes the access level of an existing one (CLI and seed). */
  put(teamPipeline: TeamPipeline): Promise<void>;
  /** A page of the team's associations, oldest first; `visiblePipelineIds` null: every one. */
  list(input: {
    teamId: string;
    visiblePipelineIds: string[] | null;
    offset: number;
    limit: number;
  }): Promise<TeamPipelineView[]>;
  /** How many associations the list covers, for the `last` page link. */
  count(input: { teamId: string; visiblePipelineIds: string[] | null }): Promise<number>;
  find(input: { teamId: string; pipelineId: string }): Promise<TeamPipelineView | null>;
  /**
   * 'taken' when the team already has the pipeline, however close the race; 'team_not_found' and
   * 'pipeline_not_found' when one of them was deleted meanwhile.
   */
  insert(teamPipeline: TeamPipeline): Promise<'inserted' | 'taken' | 'team_not_found' | 'pipeline_not_found'>;
  /** The changed association; null when it does not exist. */
  update(input: {
    teamId: string;
    pipelineId: string;
    accessLevel: AccessLevel;
  }): Promise<TeamPipelineView | null>;
  /**
   * Removes the association unless it is the pipeline's last one, deciding under a lock on the
   * pipeline so that concurrent removals cannot leave it without a team; `allowLast` removes it anyway.
   */
  deleteUnlessLast(input: {
    teamId: string;
    pipelineId: string;
    allowLast?: boolean;
  }): Promise<'deleted' | 'not_found' | 'last_team'>;
  /** A window of each team's associations, oldest first, of the pipelines `visible` covers. */
  listOfTeams(input: {
    windows: readonly ParentWindow[];
    visible: VisibleAcrossOrganizations;
  }): Promise<TeamPipelineView[]>;
  countOfTeams(input: {
    teamIds: readonly string[];
    visible: VisibleAcrossOrganizations;
  }): Promise<ParentCount[]>;
  /**
   * A window of each pipeline's associations (oldest first unless `order` says), with the teams `visible`
   * covers; `search`: only teams whose name holds it, in any case.
   */
  listOfPipelines(input: {
    windows: readonly ParentWindow[];
    visible: VisibleAcrossOrganizations;
    order?: AssociationOrder;
    search?: string;
  }): Promise<TeamPipelineView[]>;
  countOfPipelines(input: {
    pipelineIds: readonly string[];
    visible: VisibleAcrossOrganizations;
    search?: string;
  }): Promise<ParentCount[]>;
}

/** What a user may do in an organization, read in one round trip. */
export interface OrganizationAccess {
  organization: Organization;
  role: OrganizationRole;
}

/**
 * Just what decides a user's access to a pipeline, and its content revision: all an answer given by
 * its revision alone needs (ADR 0016); `pipeline` null when it does not exist.
 */
export interface PipelineRevisionFacts extends OrganizationAccess {
  pipeline: Pick<Pipeline, 'id'> | null;
  teamAccessLevels: AccessLevel[];
  pipelineHasTeams: boolean;
  /**
   * Moves whenever anything an answer about the pipeline's builds shows changes, in any process (the
   * triggers of Migration20261125090000; ADR 0016). Read with the access, before the builds; null without a pipeline.
   */
  contentRevision: string | null;
}

/** What a user may do on a pipeline, read in one round trip, with the whole pipeline and its creator. */
export interface PipelineAccessFacts extends PipelineRevisionFacts {
  pipeline: Pipeline | null;
  /** the user who created the pipeline; null when none (or no pipeline) */
  pipelineCreator: User | null;
}

export interface AccessRepository {
  /** null when the organization does not exist or the user is not a member */
  organization(input: { userId: string; organizationSlug: string }): Promise<OrganizationAccess | null>;
  pipeline(input: {
    userId: string;
    organizationSlug: string;
    pipelineSlug: string;
  }): Promise<PipelineAccessFacts | null>;
  /** {@link PipelineRevisionFacts} only: for an answer the revision may give, before reading the pipeline. */
  pipelineRevision(input: {
    userId: string;
    organizationSlug: string;
    pipelineSlug: string;
  }): Promise<PipelineRevisionFacts | null>;
  /** The user's organizations with their role, for lists that span organizations. */
  memberships(userId: string): Promise<OrganizationAccess[]>;
  /** Every pipeline of these organizations with what the user's teams give on it. */
  pipelineAccessIn(input: { userId: string; organizationIds: string[] }): Promise<PipelineAccessEntry[]>;
}

export interface PipelineAccessEntry {
  pipelineId: string;
  organizationId: string;
  teamAccessLevels: AccessLevel[];
  pipelineHasTeams: boolean;
}

export interface PipelineCounts {
  scheduledBuildsCount: number;
  runningBuildsCount: number;
  scheduledJobsCount: number;
  runningJobsCount: number;
  waitingJobsCount: number;
}

export interface JobView {
  job: Job;
  agent: (Agent & { creator: User | null }) | null;
  /** For a retry, the job it retried (in the same build); null for a first run. */
  retrySourceId: string | null;
  /** A trigger job's build once written; absent otherwise. */
  triggeredBuild?: { id: string; number: number; pipelineSlug: string };
}

/** A build's pipeline as builds show it: with its live counts and the user who created it. */
export type BuildPipeline = Pipeline & { counts: PipelineCounts; createdBy: User | null };

/** Everything a build response shows, read together. */
export interface BuildView {
  build: Build;
  organizationSlug: string;
  pipeline: BuildPipeline;
  creator: User | null;
  jobs: JobView[];
  rebuiltFrom: { id: string; number: number } | null;
  /** The trigger job that made the build, and its build; null for a build no trigger step made. */
  triggeredFrom: TriggeredFrom | null;
}

export interface TriggeredFrom {
  jobId: string;
  buildId: string;
  buildNumber: number;
  pipelineSlug: string;
}

/** What {@link BuildRepository.create} answers besides the build it was given. */
export interface CreatedBuild {
  number: number;
  stored: Pick<Build, 'env' | 'metaData' | 'author' | 'pullRequest'>;
  counts: PipelineCounts;
}

export interface BuildFilter {
  branches?: string[];
  commits?: string[];
  createdFrom?: Date;
  createdTo?: Date;
  creatorId?: string;
  finishedFrom?: Date;
  states?: BuildState[];
  metaData?: Record<string, string>;
  /** also builds of each pipeline's default branch (GraphQL's `%default`), besides `branches` */
  defaultBranch?: boolean;
  includeRetriedJobs?: boolean;
  excludeJobs?: boolean;
}

/** A pipeline as a caller has read it: with its creator when it has read that too (else it is read once). */
export type PipelineAsRead = Pipeline & { createdBy?: User | null };

/** Which builds a list covers: one pipeline, or every pipeline the viewer sees in some organizations. */
export type BuildScope =
  | {
      kind: 'pipeline';
      pipelineId: string;
      /** the pipeline itself when the caller has read it already: only its counts are read again */
      pipeline?: PipelineAsRead;
    }
  | {
      kind: 'organizations';
      /** organizations where the viewer is an admin: every pipeline */
      adminOrganizationIds: string[];
      /** in the other organizations: the pipelines the viewer may see (decided by the domain's access rule) */
      visiblePipelineIds: string[];
      /** visible pipelines the caller has read already: only their counts are read again */
      pipelines?: readonly PipelineAsRead[];
    };

/** What the builds of a batched list belong to: their pipeline, or the user who created them. */
export type BuildParent = 'pipeline' | 'creator';

export interface BuildRepository {
  /**
   * A page of the list (newest first) and, in the same statement, how many builds the list covers,
   * counted up to `countAtMost`: a count equal to it means "at least that many".
   */
  page(input: {
    scope: BuildScope;
    filter: BuildFilter;
    offset: number;
    limit: number;
    countAtMost: number;
  }): Promise<{ builds: BuildView[]; counted: number }>;
  /**
   * A window of the builds of each parent (a pipeline, or the user who created them) among those the
   * scope and filter cover, newest first, in one statement with their jobs and pipelines' counts beside.
   */
  listOfParents(input: {
    scope: BuildScope;
    filter: BuildFilter;
    parent: BuildParent;
    windows: readonly ParentWindow[];
  }): Promise<BuildView[]>;
  countOfParents(input: {
    scope: BuildScope;
    filter: BuildFilter;
    parent: BuildParent;
    parentIds: readonly string[];
  }): Promise<ParentCount[]>;
  findByNumber(input: {
    pipelineId: string;
    number: number;
    includeRetriedJobs: boolean;
    /** the build's pipeline when the caller has read it already: only its counts are read again */
    pipeline?: Pipeline;
  }): Promise<BuildView | null>;
  /**
   * What the user may see of the pipeline named by slugs (as {@link AccessRepository.pipeline}) and its
   * build `number`, in one statement; the build is null when the pipeline or the build is not there.
   */
  findWithAccess(input: {
    userId: string;
    organizationSlug: string;
    pipelineSlug: string;
    number: number;
    includeRetriedJobs: boolean;
  }): Promise<{ facts: PipelineAccessFacts | null; build: BuildView | null }>;
  /**
   * Inserts the build with the pipeline's next number and its jobs, atomically. Answers the number, the
   * build's JSON fields as stored (PostgreSQL's `jsonb` orders object keys: what a later read shows) and
   * the pipeline's counts once the build is counted.
   */
  create(input: { build: Omit<Build, 'number'>; organizationId: string; jobs: Job[] }): Promise<CreatedBuild>;
}

export interface RegistryRepository {
  findBySlug(organizationId: string, slug: string): Promise<Registry | null>;
  /** A page of the organization's registries, oldest first. */
  list(input: { organizationId: string; offset: number; limit: number }): Promise<Registry[]>;
  count(organizationId: string): Promise<number>;
  /** 'slug_taken' when the organization has a registry with this slug, however close the race. */
  insert(registry: Registry): Promise<'inserted' | 'slug_taken'>;
  /** The registry as changed; 'slug_taken' as for insert; 'not_found' when it no longer exists. */
  update(input: { id: string; changes: RegistryChanges }): Promise<Registry | 'slug_taken' | 'not_found'>;
  /** false when the organization has no registry with this slug */
  delete(organizationId: string, slug: string): Promise<boolean>;
}

/** A cluster with the user its wire form names as `created_by` (null: the user was deleted). */
export interface ClusterRecord {
  cluster: Cluster;
  createdBy: User | null;
}

/** A queue with its cluster and the users its wire form names. */
export interface ClusterQueueRecord {
  queue: ClusterQueue;
  cluster: Cluster;
  createdBy: User | null;
  dispatchPausedBy: User | null;
}

/** A cluster agent token (its hash only) with its cluster and creator. */
export interface ClusterTokenRecord {
  token: ClusterToken;
  cluster: Cluster;
  createdBy: User | null;
}

/** What a queue change writes: the body's fields, or the dispatch pause. */
export type ClusterQueueWrite = ClusterQueueChanges &
  Partial<Pick<ClusterQueue, 'dispatchPausedAt' | 'dispatchPausedById' | 'dispatchPausedNote'>>;

export interface ClusterRepository {
  findCluster(organizationId: string, clusterId: string): Promise<ClusterRecord | null>;
  /** A page of the organization's clusters, oldest first. */
  listClusters(input: { organizationId: string; offset: number; limit: number }): Promise<ClusterRecord[]>;
  countClusters(organizationId: string): Promise<number>;
  insertCluster(cluster: Cluster): Promise<void>;
  /** 'queue_not_found' when `defaultQueueId` names no queue of this cluster, however close the race. */
  updateCluster(input: {
    id: string;
    changes: ClusterChanges;
  }): Promise<ClusterRecord | 'not_found' | 'queue_not_found'>;
  /**
   * Refused while pipelines use the cluster or connected agents are in it (how many of each), decided
   * under the cluster's row lock, which new pipelines and agents of the cluster wait for (foreign keys).
   */
  deleteCluster(id: string): Promise<'deleted' | 'not_found' | { pipelines: number; agents: number }>;
  /** The cluster's name, default queue and queues by key: where its jobs and agents go. */
  placement(clusterId: string): Promise<(ClusterPlacement & { name: string }) | null>;
  /** The cluster token with this SHA-256 (hex), with its cluster; null when none (or revoked: deleted). */
  findTokenByHash(hash: string): Promise<{ token: ClusterToken; cluster: Cluster } | null>;
  /** How many pipelines of the organization use the cluster. */
  countPipelines(clusterId: string): Promise<number>;

  findQueue(clusterId: string, queueId: string): Promise<ClusterQueueRecord | null>;
  /** A page of the cluster's queues, oldest first. */
  listQueues(input: { clusterId: string; offset: number; limit: number }): Promise<ClusterQueueRecord[]>;
  countQueues(clusterId: string): Promise<number>;
  /**
   * Inserts the queue, and makes it the cluster's default when the cluster has none, in one transaction;
   * 'key_taken' when the cluster has a queue with this key; 'cluster_not_found': deleted meanwhile.
   */
  insertQueue(queue: ClusterQueue): Promise<'inserted' | 'key_taken' | 'cluster_not_found'>;
  updateQueue(input: { id: string; changes: ClusterQueueWrite }): Promise<ClusterQueueRecord | 'not_found'>;
  /** false when the cluster has no such queue; a default queue deleted leaves the cluster without one */
  deleteQueue(clusterId: string, queueId: string): Promise<boolean>;

  findToken(clusterId: string, tokenId: string): Promise<ClusterTokenRecord | null>;
  /** A page of the cluster's tokens, oldest first. */
  listTokens(input: { clusterId: string; offset: number; limit: number }): Promise<ClusterTokenRecord[]>;
  countTokens(clusterId: string): Promise<number>;
  /** 'cluster_not_found': deleted meanwhile. */
  insertToken(token: ClusterToken): Promise<'inserted' | 'cluster_not_found'>;
  updateToken(input: { id: string; changes: ClusterTokenChanges }): Promise<ClusterTokenRecord | 'not_found'>;
  deleteToken(clusterId: string, tokenId: string): Promise<boolean>;

  /** The queues (tokens) of several clusters, each in its window, oldest first (GraphQL, in one statement). */
  listQueuesOfClusters(windows: readonly ParentWindow[]): Promise<ClusterQueueRecord[]>;
  countQueuesOfClusters(clusterIds: readonly string[]): Promise<ParentCount[]>;
  listTokensOfClusters(windows: readonly ParentWindow[]): Promise<ClusterTokenRecord[]>;
  countTokensOfClusters(clusterIds: readonly string[]): Promise<ParentCount[]>;

  /** By their own UUIDs, in whatever organization (GraphQL); the use cases decide who sees them. */
  clustersById(ids: readonly string[]): Promise<ClusterRecord[]>;
  queuesById(ids: readonly string[]): Promise<ClusterQueueRecord[]>;
  tokensById(ids: readonly string[]): Promise<ClusterTokenRecord[]>;
}

/** Responses kept under their `Idempotency-Key`, by user (domain `idempotency.ts`). */
export interface IdempotencyKeyRepository {
  /**
   * In one statement: takes the key for this request (new, expired, or held past `lockedUntil` by the
   * same request) and answers `reserved`, or answers what another request holds there.
   */
  reserve(input: {
    userId: string;
    key: string;
    requestHash: string;
    now: Date;
    lockedUntil: Date;
    expiresAt: Date;
  }): Promise<'reserved' | HeldKey>;
  keep(input: { userId: string; key: string }, response: KeptResponse): Promise<void>;
  release(input: { userId: string; key: string }): Promise<void>;
}

/** Request counters of the rate limits, kept in PostgreSQL so that every server process shares them. */
export interface RateLimitRepository {
  /**
   * Counts one request in the window starting at `windowStart` (both counts include it), in one atomic
   * round trip: for the user, and for the organization with this slug when the user is a member of it
   * and the token may use it (`organizationIds` null: every one); otherwise `organization` is null.
   */
  count(input: {
    windowStart: Date;
    userId: string;
    organizationSlug: string | null;
    organizationIds: readonly string[] | null;
  }): Promise<{ organization: number | null; user: number }>;
  /** Counts one refused token from `clientAddress` in the window; the count includes it. */
  countFailedAuthentication(input: { windowStart: Date; clientAddress: string }): Promise<number>;
  /** Forgets the windows that started before `before`. */
  deleteWindowsBefore(before: Date): Promise<void>;
}

/** A build's keys: what decides who sees it, and its REST address's pipeline and number. */
export interface BuildKeys {
  buildId: string;
  number: number;
  pipelineId: string;
  pipelineSlug: string;
  organizationId: string;
}

/**
 * Objects by their own UUID, in whatever organization they are: what a transport that addresses objects
 * by id (GraphQL) reads first. These reads decide nothing; the use cases then decide who may see what.
 */
export interface LookupRepository {
  builds(input: { ids: readonly string[]; includeRetriedJobs: boolean }): Promise<BuildView[]>;
  /** The build of each job that exists. */
  jobBuilds(jobIds: readonly string[]): Promise<Array<{ jobId: string; buildId: string }>>;
  /**
   * The pipeline and organization of each of these builds that exists (what decides who sees it), and
   * its REST address's parts.
   */
  buildPipelines(buildIds: readonly string[]): Promise<BuildKeys[]>;
  /** with their creators (a list of their builds then need not read them) */
  pipelines(ids: readonly string[]): Promise<PipelineAsRead[]>;
  teams(ids: readonly string[]): Promise<Team[]>;
  teamPipelines(ids: readonly string[]): Promise<TeamPipelineView[]>;
  registries(ids: readonly string[]): Promise<Registry[]>;
  /** Users with the organizations they are members of. */
  users(ids: readonly string[]): Promise<Array<{ user: User; organizationIds: string[] }>>;
  organizationMembers(ids: readonly string[]): Promise<OrganizationMember[]>;
  teamMembers(ids: readonly string[]): Promise<TeamMember[]>;
  agents(ids: readonly string[]): Promise<Agent[]>;
  /**
   * Each of these agents that exists, with its organization, the job it holds now, if any, and that job's
   * build, and when it last finished a job.
   */
  heldJobs(agentIds: readonly string[]): Promise<
    Array<{
      agentId: string;
      organizationId: string;
      held: { jobId: string; buildId: string } | null;
      lastJobFinishedAt: Date | null;
    }>
  >;
  /** The run each of these jobs retried (in the same build), for the jobs that are retries. */
  retrySources(
    jobIds: readonly string[],
  ): Promise<Array<{ jobId: string; sourceId: string; buildId: string }>>;
}

/** Which jobs of an organization a list covers (GraphQL `Organization.jobs`). */
export interface OrganizationJobFilter {
  types: readonly JobType[] | null;
  states: readonly JobState[] | null;
  /** every one of these must be among the job's agent query rules */
  agentQueryRules: readonly string[] | null;
  /** jobs waiting in (or run from) these cluster queues; null: any */
  clusterQueueIds: readonly string[] | null;
}

export interface OrganizationJobScope {
  organizationId: string;
  /** the pipelines whose jobs the actor may see; null: every pipeline (an admin) */
  pipelineIds: readonly string[] | null;
  filter: OrganizationJobFilter;
}

export interface OrganizationJobRepository {
  /** A page of the latest runs of the organization's jobs, newest first, with each job's build. */
  list(
    input: OrganizationJobScope & { offset: number; limit: number },
  ): Promise<Array<{ jobId: string; buildId: string }>>;
  count(scope: OrganizationJobScope): Promise<number>;
}

/** The settings an admin changes on an organization. */
export type OrganizationSettings = Pick<
  Organization,
  'allowedApiIpAddresses' | 'membersRequireTwoFactorAuthentication'
>;

export interface OrganizationSettingsRepository {
  /** The organization as changed; null when it no longer exists. */
  update(input: {
    organizationId: string;
    changes: Partial<OrganizationSettings>;
  }): Promise<Organization | null>;
  /** Sets the organization's banner (its one banner keeps its id); the banner as stored. */
  putBanner(banner: OrganizationBanner): Promise<OrganizationBanner>;
  /** Removes the organization's banner; its id, null when it had none. */
  deleteBanner(organizationId: string): Promise<string | null>;
  /** The banners of these organizations (one at most each). */
  bannersOf(organizationIds: readonly string[]): Promise<OrganizationBanner[]>;
  /** The banners of these ids that exist, in any order. */
  bannersByIds(ids: readonly string[]): Promise<OrganizationBanner[]>;
  /** The organization's teams among these ids. */
  teamsIn(input: { organizationId: string; teamIds: readonly string[] }): Promise<string[]>;
  insertInvitations(invitations: readonly OrganizationInvitation[]): Promise<void>;
  findInvitation(id: string): Promise<OrganizationInvitation | null>;
  /** The invitations of these ids that exist, in any order. */
  invitationsByIds(ids: readonly string[]): Promise<OrganizationInvitation[]>;
  /** The organization's invitations, newest first. */
  invitationsOf(organizationId: string): Promise<OrganizationInvitation[]>;
  /** Marks a pending invitation accepted; false when it was accepted already (however close the race). */
  acceptInvitation(input: { id: string; userId: string; at: Date }): Promise<boolean>;
}

export interface Repositories {
  organizationSettings: OrganizationSettingsRepository;
  accessTokens: AccessTokenRepository;
  webSessions: WebSessionRepository;
  users: UserRepository;
  organizations: OrganizationRepository;
  teams: TeamRepository;
  pipelines: PipelineRepository;
  teamPipelines: TeamPipelineRepository;
  access: AccessRepository;
  builds: BuildRepository;
  registries: RegistryRepository;
  clusters: ClusterRepository;
  rateLimits: RateLimitRepository;
  idempotencyKeys: IdempotencyKeyRepository;
  organizationMembers: OrganizationMemberRepository;
  lookups: LookupRepository;
  jobs: JobRepository;
  buildMetaData: BuildMetaDataRepository;
  agents: AgentRepository;
  organizationJobs: OrganizationJobRepository;
  rules: RuleRepository;
  annotations: AnnotationRepository;
  pipelineTemplates: PipelineTemplateRepository;
  suites: SuiteRepository;
  artifacts: ArtifactRepository;
  notificationServices: NotificationServiceRepository;
  sourceWebhooks: SourceWebhookRepository;
  pipelineTriggers: PipelineTriggerRepository;
  pipelineSchedules: PipelineScheduleRepository;
  badges: BadgeRepository;
}

export interface Deps {
  repos: Repositories;
  clock: Clock;
  newId: () => string;
  /** agent intervals and the silence after which a job is lost; defaults when absent */
  agentTimings?: AgentTimings;
  /** how far lists are counted for their totals; defaults when absent (tests lower them) */
  listLimits?: { buildCount?: number };
  /** where artifacts' bytes go and the largest one taken; a process without it serves no artifacts */
  artifacts?: ArtifactSettings;
}
