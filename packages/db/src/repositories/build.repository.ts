import type {
  BuildFilter,
  BuildParent,
  BuildRepository,
  BuildScope,
  BuildView,
  JobView,
  ParentCount,
  PipelineAsRead,
} from '@ci/application';
import {
  type Build,
  type BuildSource,
  type BuildState,
  notFound,
  type Pipeline,
  type User,
} from '@ci/domain';
import { namedStatement } from '../named-statement';
import { inParentWindows, parentWindows, prefixedColumns, toDate, toDateOrNull } from '../rows';
import { likeLiteral, type Sql } from '../sql';
import {
  joinedUserFromRow,
  PIPELINE_CREATOR_COLUMNS,
  pipelineCreatorFromRow,
  USER_COLUMNS_PREFIXED,
} from './identity.repository';
import { JOB_COLUMN_NAMES, JOB_RECORD, JOB_SELECT, jobFromRow, jobRecords } from './job.repository';
import {
  PIPELINE_ACCESS_TEXT,
  PIPELINE_COLUMNS,
  pipelineAccessFactsFromRow,
  pipelineFromRow,
} from './pipeline.repository';
import { COUNT_NEW_BUILDS, countsFromRow, PIPELINE_COUNT_COLUMNS } from './pipeline-counts';

type Row = Record<string, unknown>;

/**
 * The trigger job that made a build and that job's build (`b_triggered_from`), looked for only when the
 * build says it was triggered: the other builds pay nothing for it (a function, ADR 0029).
 */
const TRIGGERED_FROM = `case when b.source = 'trigger_job' then build_triggered_from(b.id) end as b_triggered_from`;

/** The build (`b_`), its creator (`u_`), and of the build it rebuilt what it shows. */
const BUILD_OWN_COLUMNS = `${prefixedColumns('b', [
  'id',
  'pipeline_id',
  'number',
  'state',
  'blocked_state',
  'cancel_reason',
  'message',
  'commit',
  'branch',
  'env',
  'meta_data',
  'source',
  'author',
  'creator_id',
  'rebuilt_from_id',
  'pull_request',
  'clean_checkout',
  'created_at',
  'scheduled_at',
  'started_at',
  'failing_at',
  'finished_at',
])}, ${USER_COLUMNS_PREFIXED}, rb.number as rb_number, ${TRIGGERED_FROM}`;

const BUILD_OWN_JOINS = `left join users u on u.id = b.creator_id
left join builds rb on rb.id = b.rebuilt_from_id`;

/** The same and its organization's slug (`o_slug`). */
const BUILD_COLUMNS = `${BUILD_OWN_COLUMNS}, o.slug as o_slug`;

const BUILD_JOINS = `join organizations o on o.id = b.organization_id
${BUILD_OWN_JOINS}`;

/**
 * Build rows without their pipelines, for lists: a page's builds share a few pipelines, whose rows (steps,
 * configuration: ~2 KB each) {@link complete} reads once each instead of once per build.
 */
export const BUILD_ROW_SELECT = `select ${BUILD_COLUMNS} from builds b ${BUILD_JOINS}`;

/**
 * Build rows with their pipelines' counts (`pc_`), for a caller that has read the pipelines already: each
 * known pipeline takes them from one of its builds' rows ({@link withCountsFrom}). With `creatorId`, the
 * SQL of the known pipeline's creator's id, its creator too (`pu_`); without, the caller has it.
 */
function buildWithCountsSelect(creatorId: string | null) {
  return `select ${BUILD_COLUMNS}, ${PIPELINE_COUNT_COLUMNS}${creatorId ? `, ${PIPELINE_CREATOR_COLUMNS}` : ''}
from builds b ${BUILD_JOINS}
left join pipeline_counts pc on pc.pipeline_id = b.pipeline_id
${creatorId ? `left join users pu on pu.id = ${creatorId}` : ''}`;
}

/**
 * A build's create, one statement: the pipeline's counter row stays locked from the increment to the end
 * of the statement, so concurrent creates (from any number of processes) get distinct numbers. It adds its
 * build and jobs to the pipeline's counts itself (the insert triggers then step aside), which answers the
 * counts after it. One text, made once (a prepared statement is found by its text).
 *
 * Locks in the order the insert triggers took them: the pipeline's row, the rows the new build refers to,
 * the counter row last. The foreign keys' checks lock the build it rebuilds and its creator (key share) at
 * the end of the statement, after the counter row; `referenced` locks them first. A change of the rebuilt
 * build holds it (`for update`) and then updates the counter row: the create waits for it before it holds
 * the counter row, not while (which would be a deadlock).
 */
const CREATE = namedStatement(
  `with allocated as (
  update pipelines set next_build_number = next_build_number + 1
  where id = :pipeline_id returning next_build_number - 1 as number
), referenced as (
  select (select 1 from builds where id = :rebuilt_from_id for key share) as rebuilt,
    (select 1 from users where id = :creator_id for key share) as creator
), new_builds as (
  insert into builds (id, organization_id, pipeline_id, number, state, blocked_state, cancel_reason,
    message, commit, branch, env, meta_data, source, author, creator_id, rebuilt_from_id, pull_request,
    clean_checkout, created_at, scheduled_at, started_at, failing_at, finished_at)
  select :id, :organization_id, :pipeline_id, allocated.number, :state, :blocked_state, null, :message,
    :commit, :branch, :env, :meta_data, :source, :author, :creator_id, :rebuilt_from_id, :pull_request,
    :clean_checkout, :created_at, :scheduled_at, null, null, :finished_at
  from allocated, referenced returning id, pipeline_id, state, number, env, meta_data, author, pull_request
), new_jobs as (
  insert into jobs (${JOB_COLUMN_NAMES})
  select * from jsonb_to_recordset(:jobs::jsonb) as x(${JOB_RECORD})
  -- No build without its pipeline (deleted meanwhile): then no jobs either.
  where exists (select 1 from new_builds)
  returning build_id, state
), counted as (
  ${COUNT_NEW_BUILDS}
)
select b.number, b.env, b.meta_data, b.author, b.pull_request, counted.*
from new_builds b left join counted on true`,
);

/**
 * The build rows of a list whose `known` pipelines the caller has read: with their counts beside if any,
 * so that no pipeline is read again. Their creators are not repeated on every row ({@link complete}).
 */
function listSelect(known: readonly Pipeline[]): string {
  return known.length ? LIST_WITH_COUNTS_SELECT : BUILD_ROW_SELECT;
}

const LIST_WITH_COUNTS_SELECT = buildWithCountsSelect(null);

type PipelineWithCounts = BuildView['pipeline'];

/** A build row's view, its pipeline apart. */
type BuildRowView = Omit<BuildView, 'jobs' | 'pipeline'>;

function buildFromRow(row: Row): Build {
  return {
    id: row.b_id as string,
    pipelineId: row.b_pipeline_id as string,
    number: row.b_number as number,
    state: row.b_state as BuildState,
    blockedState: (row.b_blocked_state as Build['blockedState']) ?? null,
    cancelReason: (row.b_cancel_reason as string | null) ?? null,
    message: (row.b_message as string | null) ?? null,
    commit: row.b_commit as string,
    branch: row.b_branch as string,
    env: row.b_env as Record<string, string>,
    metaData: row.b_meta_data as Record<string, string>,
    source: row.b_source as BuildSource,
    author: (row.b_author as Build['author']) ?? null,
    creatorId: (row.b_creator_id as string | null) ?? null,
    rebuiltFromId: (row.b_rebuilt_from_id as string | null) ?? null,
    pullRequest: (row.b_pull_request as Build['pullRequest']) ?? null,
    cleanCheckout: row.b_clean_checkout as boolean,
    createdAt: toDate(row.b_created_at),
    scheduledAt: toDate(row.b_scheduled_at),
    startedAt: toDateOrNull(row.b_started_at),
    failingAt: toDateOrNull(row.b_failing_at),
    finishedAt: toDateOrNull(row.b_finished_at),
  };
}

function triggeredFromOf(value: Row | null | undefined): BuildView['triggeredFrom'] {
  if (!value) return null;
  return {
    jobId: value.job_id as string,
    buildId: value.build_id as string,
    buildNumber: value.build_number as number,
    pipelineSlug: value.pipeline_slug as string,
  };
}

function viewFromRow(row: Row): BuildRowView {
  const build = buildFromRow(row);
  return {
    build,
    organizationSlug: row.o_slug as string,
    creator: joinedUserFromRow(row),
    rebuiltFrom: build.rebuiltFromId ? { id: build.rebuiltFromId, number: row.rb_number as number } : null,
    triggeredFrom: triggeredFromOf(row.b_triggered_from as Row | null | undefined),
  };
}

/**
 * A pipeline the caller has read, with the counts read beside one of its builds ({@link buildWithCountsSelect})
 * and its creator: the one given, else the one read beside the build.
 */
const withCountsFrom = (
  pipeline: Pipeline,
  row: Row,
  createdBy: User | null = pipelineCreatorFromRow(row),
): PipelineWithCounts => ({ ...pipeline, counts: countsFromRow(row), createdBy });

const pipelineWithCountsFromRow = (row: Row): PipelineWithCounts => withCountsFrom(pipelineFromRow(row), row);

/**
 * `build_by_number`: the build :number of the pipeline :pipeline_id in one statement, with its pipeline's
 * counts and creator and (unless the caller has it: then its creator's id is :pipeline_creator_id) the
 * pipeline, and its few jobs as a JSON array beside them (for a page of builds, JSON costs PostgreSQL
 * more than the second statement it saves). Its row: {@link buildByNumberFromRow}.
 */
function buildByNumber(options: { includeRetriedJobs: boolean; pipelineKnown: boolean }) {
  return namedStatement(
    buildByNumberText({
      ...options,
      pipelineId: ':pipeline_id',
      creatorId: options.pipelineKnown ? ':pipeline_creator_id::uuid' : null,
    }),
  );
}

function buildByNumberText(options: {
  includeRetriedJobs: boolean;
  pipelineKnown: boolean;
  pipelineId: string;
  /** the SQL of the known pipeline's creator's id; null: none read beside the build */
  creatorId: string | null;
}) {
  const { pipelineKnown } = options;
  return `select x.*, ${pipelineKnown ? '' : `${PIPELINE_COLUMNS}, ${PIPELINE_CREATOR_COLUMNS}, `}(
      select coalesce(json_agg(jr order by jr.position, jr.created_at), '[]') from (
        ${JOB_SELECT} where j.build_id = x.b_id ${options.includeRetriedJobs ? '' : 'and not j.retried'}
      ) jr
    ) as jobs_json
    from (${buildWithCountsSelect(options.creatorId)}
      where b.pipeline_id = ${options.pipelineId} and b.number = :number) x
    ${pipelineKnown ? '' : 'join pipelines p on p.id = x.b_pipeline_id left join users pu on pu.id = p.created_by_id'}`;
}

/**
 * `build_with_access`: the pipeline access (pipeline.repository.ts `PIPELINE_ACCESS_TEXT`, as `access`)
 * and the build :number of that pipeline as {@link buildByNumber} reads it (`build`): a build's GET in one
 * statement. Each part is one JSON value: `pg` reads a row description of every column on each
 * execution, and ~130 cost the server more than parsing two objects (ADR 0029).
 */
function buildWithAccess(includeRetriedJobs: boolean) {
  return namedStatement(`select to_json(a) as access, to_json(bn) as build from (${PIPELINE_ACCESS_TEXT}) a
    left join lateral (${buildByNumberText({ includeRetriedJobs, pipelineKnown: true, pipelineId: 'a.p_id', creatorId: null })}) bn on true`);
}

const WITH_ACCESS = { withRetriedJobs: buildWithAccess(true), latestJobs: buildWithAccess(false) };

/** findByNumber's four statements, made once, not per call. */
const BY_NUMBER = {
  withRetriedJobs: {
    pipelineRead: buildByNumber({ includeRetriedJobs: true, pipelineKnown: false }),
    pipelineKnown: buildByNumber({ includeRetriedJobs: true, pipelineKnown: true }),
  },
  latestJobs: {
    pipelineRead: buildByNumber({ includeRetriedJobs: false, pipelineKnown: false }),
    pipelineKnown: buildByNumber({ includeRetriedJobs: false, pipelineKnown: true }),
  },
};

/** The view of a {@link buildByNumber} row; `pipeline`: the one the caller had (only its counts were read). */
function buildByNumberFromRow(row: Row, pipeline: Pipeline | undefined): BuildView {
  return {
    ...viewFromRow(row),
    pipeline: pipeline ? withCountsFrom(pipeline, row) : pipelineWithCountsFromRow(row),
    jobs: (row.jobs_json as Row[]).map(jobFromRow),
  };
}

/** Pipelines with their counts and creators, by id, one row each. */
async function pipelinesOf(sql: Sql, ids: string[]): Promise<Map<string, PipelineWithCounts>> {
  const [only] = ids;
  const rows = await sql.prepared(
    `select ${PIPELINE_COLUMNS}, ${PIPELINE_COUNT_COLUMNS}, ${PIPELINE_CREATOR_COLUMNS}
     from pipelines p left join pipeline_counts pc on pc.pipeline_id = p.id
     left join users pu on pu.id = p.created_by_id
     where ${ids.length === 1 ? 'p.id = $1' : 'p.id = any($1::uuid[])'}`,
    [ids.length === 1 ? only : ids],
  );
  return new Map(rows.map((row) => [row.p_id as string, pipelineWithCountsFromRow(row)]));
}

/** Users by id (the creators of pipelines a list's caller has read without them). */
async function usersOf(sql: Sql, ids: string[]): Promise<Map<string, User>> {
  const rows = await sql.prepared(
    `select ${PIPELINE_CREATOR_COLUMNS} from users pu where pu.id = any($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.pu_id as string, pipelineCreatorFromRow(row) as User]));
}

/** Turns '*' wildcards into a LIKE pattern, everything else literal. */
function likePattern(branch: string): string {
  return likeLiteral(branch).replaceAll('*', '%');
}

/**
 * The list's conditions. A single value is compared with `=`, not `= any(array)`: only then can an index
 * that leads with the filtered columns deliver the rows in the list's order (the first page reads its
 * own index entries instead of filtering the whole order).
 */
function whereClause(scope: BuildScope, filter: BuildFilter, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const oneOf = (column: string, values: readonly string[], type: string) =>
    values.length === 1 ? `${column} = ${param(values[0])}` : `${column} = any(${param(values)}::${type}[])`;
  const conditions: string[] = [];
  if (scope.kind === 'pipeline') {
    conditions.push(`b.pipeline_id = ${param(scope.pipelineId)}`);
  } else {
    const visible: string[] = [];
    if (scope.adminOrganizationIds.length)
      visible.push(oneOf('b.organization_id', scope.adminOrganizationIds, 'uuid'));
    if (scope.visiblePipelineIds.length)
      visible.push(oneOf('b.pipeline_id', scope.visiblePipelineIds, 'uuid'));
    conditions.push(visible.length ? `(${visible.join(' or ')})` : 'false');
  }
  if (filter.branches?.length || filter.defaultBranch) {
    const branches = filter.branches ?? [];
    const exact = branches.filter((branch) => !branch.includes('*'));
    const wildcards = branches.filter((branch) => branch.includes('*')).map(likePattern);
    const either: string[] = [];
    if (exact.length) either.push(oneOf('b.branch', exact, 'text'));
    if (wildcards.length) either.push(`b.branch like any(${param(wildcards)}::text[])`);
    if (filter.defaultBranch) {
      either.push('b.branch = (select dp.default_branch from pipelines dp where dp.id = b.pipeline_id)');
    }
    conditions.push(`(${either.join(' or ')})`);
  }
  if (filter.commits?.length) conditions.push(oneOf('b.commit', filter.commits, 'text'));
  if (filter.createdFrom) conditions.push(`b.created_at >= ${param(filter.createdFrom)}`);
  if (filter.createdTo) conditions.push(`b.created_at < ${param(filter.createdTo)}`);
  if (filter.finishedFrom) conditions.push(`b.finished_at >= ${param(filter.finishedFrom)}`);
  if (filter.creatorId) conditions.push(`b.creator_id = ${param(filter.creatorId)}`);
  if (filter.states?.length) conditions.push(oneOf('b.state', filter.states, 'text'));
  if (filter.metaData && Object.keys(filter.metaData).length) {
    conditions.push(`b.meta_data @> ${param(JSON.stringify(filter.metaData))}::jsonb`);
  }
  return conditions.join(' and ');
}

/**
 * Whether a list's best plan is the same for every value, so that a generic plan of its prepared
 * statement may be kept: filters compared with `=` that one ordered index leads with. A pipeline has
 * (pipeline, branch, state), (pipeline, branch) and (pipeline, state); an organization (organization,
 * branch) and (organization, state), not both at once. Other filters' best plans depend on how many
 * builds they match.
 */
function servedByOrderedIndex(scope: BuildScope, filter: BuildFilter): boolean {
  const plain = plainFilter(filter);
  if (scope.kind === 'pipeline') return plain;
  const oneOrganization = scope.adminOrganizationIds.length === 1 && scope.visiblePipelineIds.length === 0;
  return plain && oneOrganization && (filter.branches?.length ?? 0) + (filter.states?.length ?? 0) <= 1;
}

/**
 * Whether each pipeline's window of a batched list is served by a pipeline's ordered index (as a
 * pipeline's own list is, {@link servedByOrderedIndex}): every window is then read by the same plan.
 */
function windowsServedByOrderedIndex(parent: BuildParent, filter: BuildFilter): boolean {
  return parent === 'pipeline' && plainFilter(filter);
}

/** At most one branch (no wildcard) and one state, and no other filter. */
function plainFilter(filter: BuildFilter): boolean {
  const {
    branches = [],
    states = [],
    includeRetriedJobs: _retried,
    excludeJobs: _excluded,
    ...others
  } = filter;
  const rest = Object.values(others).filter(
    (value) =>
      value !== undefined &&
      value !== null &&
      value !== false &&
      !(typeof value === 'object' && !(value instanceof Date) && Object.keys(value).length === 0),
  );
  return rest.length === 0 && branches.length <= 1 && states.length <= 1 && !branches[0]?.includes('*');
}

async function jobsOf(
  sql: Sql,
  buildIds: string[],
  includeRetriedJobs: boolean,
): Promise<Map<string, JobView[]>> {
  // By default a build shows only the latest run of each step; retried runs on request.
  // One build's jobs by `=` (a plan kept for every build), a page's by array.
  const [only] = buildIds;
  const rows = await sql.prepared(
    `${JOB_SELECT} where ${buildIds.length === 1 ? 'j.build_id = $1' : 'j.build_id = any($1::uuid[])'}
     ${includeRetriedJobs ? '' : 'and not j.retried'} order by j.build_id, j.position, j.created_at`,
    [buildIds.length === 1 ? only : buildIds],
  );
  const byBuild = new Map<string, JobView[]>();
  for (const row of rows) {
    const jobView = jobFromRow(row);
    const list = byBuild.get(jobView.job.buildId);
    if (list) list.push(jobView);
    else byBuild.set(jobView.job.buildId, [jobView]);
  }
  return byBuild;
}

/**
 * Completes build rows with their jobs and their pipelines: those the caller has read (`known`, the rows
 * then from {@link listSelect}) with the counts beside their builds, the others read once each.
 */
export async function complete(
  sql: Sql,
  rows: Row[],
  options: Pick<BuildFilter, 'includeRetriedJobs' | 'excludeJobs'>,
  known: readonly PipelineAsRead[] = [],
): Promise<BuildView[]> {
  if (rows.length === 0) return [];
  const knownById = new Map(known.map((pipeline) => [pipeline.id, pipeline]));
  // Each pipeline once: known ones with the counts of their first build's row and their creators (those
  // the caller has not read are read once), the others read whole; all at once.
  const firstRows = new Map<string, Row>();
  const unknown = new Set<string>();
  const creatorIds = new Set<string>();
  for (const row of rows) {
    const id = row.b_pipeline_id as string;
    if (firstRows.has(id) || unknown.has(id)) continue;
    const pipeline = knownById.get(id);
    if (!pipeline) unknown.add(id);
    else {
      firstRows.set(id, row);
      if (pipeline.createdBy === undefined && pipeline.createdById) creatorIds.add(pipeline.createdById);
    }
  }
  const [jobs, read, creators] = await Promise.all([
    options.excludeJobs
      ? new Map<string, JobView[]>()
      : jobsOf(
          sql,
          rows.map((row) => row.b_id as string),
          options.includeRetriedJobs ?? false,
        ),
    unknown.size ? pipelinesOf(sql, [...unknown]) : new Map<string, PipelineWithCounts>(),
    creatorIds.size ? usersOf(sql, [...creatorIds]) : new Map<string, User>(),
  ]);
  const counted = new Map<string, PipelineWithCounts>();
  for (const [id, row] of firstRows) {
    const { createdBy, ...pipeline } = knownById.get(id) as PipelineAsRead;
    const creator = createdBy === undefined ? creators.get(pipeline.createdById ?? '') : createdBy;
    counted.set(id, withCountsFrom(pipeline, row, creator ?? null));
  }
  return rows.flatMap((row) => {
    const pipeline = counted.get(row.b_pipeline_id as string) ?? read.get(row.b_pipeline_id as string);
    // A pipeline deleted between the two reads took its builds with it.
    if (!pipeline) return [];
    return [{ ...viewFromRow(row), pipeline, jobs: jobs.get(row.b_id as string) ?? [] }];
  });
}

/** The pipelines of a scope that the caller has read already (their counts are read with the builds, {@link listSelect}). */
function knownPipelines(scope: BuildScope): readonly PipelineAsRead[] {
  if (scope.kind === 'pipeline') return scope.pipeline ? [scope.pipeline] : [];
  return scope.pipelines ?? [];
}

/** The column a batched list takes each parent's window on. */
const PARENT_COLUMN = { pipeline: 'b.pipeline_id', creator: 'b.creator_id' } as const satisfies Record<
  BuildParent,
  string
>;

export function buildRepository(sql: Sql): BuildRepository {
  return {
    async listOfParents({ scope, filter, parent, windows }) {
      if (windows.every((window) => window.limit === 0)) return [];
      const params: unknown[] = [...parentWindows(windows)];
      const where = whereClause(scope, filter, params);
      const known = knownPipelines(scope);
      const select = listSelect(known);
      // Each parent's window of the one order every build list has, beside the others in one statement.
      const rows = await (windowsServedByOrderedIndex(parent, filter) ? sql.prepared : sql.query)(
        inParentWindows(
          `${select} where ${where} and ${PARENT_COLUMN[parent]} = w.parent_id
           order by b.created_at desc, b.number desc offset w.off limit w.lim`,
        ),
        params,
      );
      return complete(sql, rows, filter, known);
    },
    async countOfParents({ scope, filter, parent, parentIds }) {
      if (parentIds.length === 0) return [];
      const params: unknown[] = [parentIds];
      const where = whereClause(scope, filter, params);
      return sql.query<ParentCount>(
        `select ${PARENT_COLUMN[parent]} as "parentId", count(*)::int as count from builds b
         where ${where} and ${PARENT_COLUMN[parent]} = any($1::uuid[]) group by ${PARENT_COLUMN[parent]}`,
        params,
      );
    },
    async page({ scope, filter, offset, limit, countAtMost }) {
      const params: unknown[] = [];
      const where = whereClause(scope, filter, params);
      params.push(limit, offset, countAtMost);
      const [limitParam, offsetParam, countParam] = [params.length - 2, params.length - 1, params.length];
      const known = knownPipelines(scope);
      const select = listSelect(known);
      // One statement: the bounded count (read once) beside the page, whose rows may be none.
      const rows = await (servedByOrderedIndex(scope, filter) ? sql.prepared : sql.query)(
        `select counted.n as counted, x.* from
           (select count(*)::int as n from (select 1 from builds b where ${where} limit $${countParam}) c) counted
         left join lateral (
           ${select} where ${where} order by b.created_at desc, b.number desc
           limit $${limitParam} offset $${offsetParam}
         ) x on true`,
        params,
      );
      const builds = await complete(
        sql,
        rows.filter((row) => row.b_id !== null),
        filter,
        known,
      );
      return { builds, counted: (rows[0]?.counted as number | undefined) ?? 0 };
    },
    async findByNumber({ pipelineId, number, includeRetriedJobs, pipeline }) {
      const statements = includeRetriedJobs ? BY_NUMBER.withRetriedJobs : BY_NUMBER.latestJobs;
      const statement = pipeline ? statements.pipelineKnown : statements.pipelineRead;
      const [row] = await sql.prepared(
        statement.text,
        statement.values(
          pipeline
            ? { pipeline_id: pipelineId, number, pipeline_creator_id: pipeline.createdById }
            : { pipeline_id: pipelineId, number },
        ),
      );
      return row ? buildByNumberFromRow(row, pipeline) : null;
    },
    async findWithAccess({ userId, organizationSlug, pipelineSlug, number, includeRetriedJobs }) {
      const statement = includeRetriedJobs ? WITH_ACCESS.withRetriedJobs : WITH_ACCESS.latestJobs;
      const [row] = await sql.prepared(
        statement.text,
        statement.values({
          user_id: userId,
          organization_slug: organizationSlug,
          pipeline_slug: pipelineSlug,
          number,
        }),
      );
      const facts = pipelineAccessFactsFromRow(row?.access as Row | undefined);
      const read = row?.build as Row | null | undefined;
      const build = facts?.pipeline && read ? buildByNumberFromRow(read, facts.pipeline) : null;
      return { facts, build };
    },
    async create({ build, organizationId, jobs }) {
      // The statement counts the jobs through the build it inserts: another build's would go uncounted.
      if (jobs.some((job) => job.buildId !== build.id)) throw new Error("a new build's jobs must be its own");
      const [row] = await sql.prepared(
        CREATE.text,
        CREATE.values({
          id: build.id,
          organization_id: organizationId,
          pipeline_id: build.pipelineId,
          state: build.state,
          blocked_state: build.blockedState,
          message: build.message,
          commit: build.commit,
          branch: build.branch,
          env: JSON.stringify(build.env),
          meta_data: JSON.stringify(build.metaData),
          source: build.source,
          author: build.author ? JSON.stringify(build.author) : null,
          creator_id: build.creatorId,
          rebuilt_from_id: build.rebuiltFromId,
          pull_request: build.pullRequest ? JSON.stringify(build.pullRequest) : null,
          clean_checkout: build.cleanCheckout,
          created_at: build.createdAt,
          scheduled_at: build.scheduledAt,
          finished_at: build.finishedAt,
          jobs: jobRecords(jobs),
        }),
      );
      // The pipeline was deleted between the authorization and this statement: it answers as one that is gone.
      if (!row) throw notFound('pipeline');
      return {
        number: row.number as number,
        stored: {
          env: row.env as Build['env'],
          metaData: row.meta_data as Build['metaData'],
          author: (row.author as Build['author']) ?? null,
          pullRequest: (row.pull_request as Build['pullRequest']) ?? null,
        },
        counts: countsFromRow(row),
      };
    },
  };
}
