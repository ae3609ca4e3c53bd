import type {
  AccessLevel,
  AccessToken,
  Agent,
  Build,
  BuildState,
  Job,
  Organization,
  OrganizationRole,
  Pipeline,
  Registry,
  RegistryChanges,
  Team,
  TeamMemberRole,
  TeamPipeline,
  User,
} from '@ci/domain';

/** The application's view of the outside world; packages/db implements these against PostgreSQL. */

export interface Clock {
  now(): Date;
}

export interface AccessTokenRepository {
  /** The token with this hash and its user, revoked and expired ones included (the caller decides). */
  findByHash(tokenHash: string): Promise<{ token: AccessToken; user: User } | null>;
  insert(token: AccessToken): Promise<void>;
  /** false when no such unrevoked token exists */
  revoke(id: string, at: Date): Promise<boolean>;
}

export interface UserRepository {
  findByEmail(email: string): Promise<User | null>;
  insert(user: User): Promise<void>;
}

export interface OrganizationRepository {
  findBySlug(slug: string): Promise<Organization | null>;
  insert(organization: Organization): Promise<void>;
  /** Adds the user, or changes the role of an existing member. */
  putMember(input: {
    organizationId: string;
    userId: string;
    role: OrganizationRole;
    at: Date;
  }): Promise<void>;
  countAll(): Promise<number>;
}

export interface TeamRepository {
  findBySlug(organizationId: string, slug: string): Promise<Team | null>;
  /** The organization's team with this id (a lowercase UUID), or null. */
  findById(organizationId: string, id: string): Promise<Team | null>;
  insert(team: Team): Promise<void>;
  putMember(input: { teamId: string; userId: string; role: TeamMemberRole; at: Date }): Promise<void>;
}

export interface PipelineRepository {
  findBySlug(organizationId: string, slug: string): Promise<Pipeline | null>;
  /** The organization's pipeline with this id (a lowercase UUID), or null. */
  findById(organizationId: string, id: string): Promise<Pipeline | null>;
  insert(pipeline: Pipeline): Promise<void>;
}

/** A team/pipeline association with what its wire form needs of the pipeline. */
export interface TeamPipelineView {
  teamPipeline: TeamPipeline;
  pipelineSlug: string;
  pipeline: Pipeline;
}

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
  /** false when the team already has the pipeline, however close the race. */
  insert(teamPipeline: TeamPipeline): Promise<boolean>;
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
}

/** What a user may do in an organization, read in one round trip. */
export interface OrganizationAccess {
  organization: Organization;
  role: OrganizationRole;
}

/** What a user may do on a pipeline, read in one round trip; `pipeline` null when it does not exist. */
export interface PipelineAccessFacts extends OrganizationAccess {
  pipeline: Pipeline | null;
  teamAccessLevels: AccessLevel[];
  pipelineHasTeams: boolean;
}

export interface AccessRepository {
  /** null when the organization does not exist or the user is not a member */
  organization(input: { userId: string; organizationSlug: string }): Promise<OrganizationAccess | null>;
  pipeline(input: {
    userId: string;
    organizationSlug: string;
    pipelineSlug: string;
  }): Promise<PipelineAccessFacts | null>;
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
}

/** Everything a build response shows, read together. */
export interface BuildView {
  build: Build;
  organizationSlug: string;
  pipeline: Pipeline & { counts: PipelineCounts };
  creator: User | null;
  jobs: JobView[];
  rebuiltFrom: { id: string; number: number } | null;
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
  includeRetriedJobs?: boolean;
  excludeJobs?: boolean;
}

/** Which builds a list covers: one pipeline, or every pipeline the viewer sees in some organizations. */
export type BuildScope =
  | { kind: 'pipeline'; pipelineId: string }
  | {
      kind: 'organizations';
      /** organizations where the viewer is an admin: every pipeline */
      adminOrganizationIds: string[];
      /** in the other organizations: the pipelines the viewer may see (decided by the domain's access rule) */
      visiblePipelineIds: string[];
    };

export interface BuildRepository {
  list(input: {
    scope: BuildScope;
    filter: BuildFilter;
    offset: number;
    limit: number;
  }): Promise<BuildView[]>;
  /** How many builds the list covers, for the `last` page link. */
  count(input: { scope: BuildScope; filter: BuildFilter }): Promise<number>;
  findByNumber(input: {
    pipelineId: string;
    number: number;
    includeRetriedJobs: boolean;
  }): Promise<BuildView | null>;
  /** Inserts the build with the pipeline's next number and its jobs, atomically; returns the number. */
  create(input: { build: Omit<Build, 'number'>; organizationId: string; jobs: Job[] }): Promise<number>;
  /** Applies a state change computed by the domain, only if the build is still in `expectedState`. */
  updateState(input: {
    buildId: string;
    expectedState: BuildState;
    build: Build;
    jobChanges: { state: 'canceled'; at: Date } | null;
  }): Promise<boolean>;
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

/**
 * Objects by their own UUID, in whatever organization they are: what a transport that addresses objects
 * by id (GraphQL) reads first. These reads decide nothing; the use cases then decide who may see what.
 */
export interface LookupRepository {
  builds(input: { ids: readonly string[]; includeRetriedJobs: boolean }): Promise<BuildView[]>;
  /** The build of each job that exists. */
  jobBuilds(jobIds: readonly string[]): Promise<Array<{ jobId: string; buildId: string }>>;
  pipelines(ids: readonly string[]): Promise<Pipeline[]>;
  teams(ids: readonly string[]): Promise<Team[]>;
  teamPipelines(ids: readonly string[]): Promise<TeamPipelineView[]>;
  registries(ids: readonly string[]): Promise<Registry[]>;
}

export interface Repositories {
  accessTokens: AccessTokenRepository;
  users: UserRepository;
  organizations: OrganizationRepository;
  teams: TeamRepository;
  pipelines: PipelineRepository;
  teamPipelines: TeamPipelineRepository;
  access: AccessRepository;
  builds: BuildRepository;
  registries: RegistryRepository;
  lookups: LookupRepository;
}

export interface Deps {
  repos: Repositories;
  clock: Clock;
  newId: () => string;
}
