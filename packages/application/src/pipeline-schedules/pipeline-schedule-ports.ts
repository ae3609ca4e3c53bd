import type { PipelineSchedule, PipelineScheduleFields } from '@ci/domain';
import type { InboundPipeline } from '../inbound/inbound-ports';
import type { Repositories } from '../ports';

/** A due schedule as the tick claimed it, with the pipeline its build goes to. */
export interface DueSchedule extends InboundPipeline {
  schedule: PipelineSchedule;
}

/** What a tick did: the build it made (or why none), and the tick the schedule owes next. */
export interface TickOutcome {
  at: Date;
  nextBuildAt: Date | null;
  buildId: string | null;
  failedMessage: string | null;
}

export type PipelineScheduleChanges = Partial<PipelineScheduleFields> & { nextBuildAt?: Date | null };

export interface PipelineScheduleRepository {
  /** The pipeline's schedules, oldest first. */
  list(pipelineId: string): Promise<PipelineSchedule[]>;
  /** The schedules of all these pipelines, oldest first, in one read (a page of pipelines). */
  listOfPipelines(pipelineIds: readonly string[]): Promise<PipelineSchedule[]>;
  find(pipelineId: string, id: string): Promise<PipelineSchedule | null>;
  /** Those of these schedules that exist, in one read. */
  findMany(ids: readonly string[]): Promise<PipelineSchedule[]>;
  /** The slugs of the schedule's organization and pipeline; null: no such schedule. */
  locate(id: string): Promise<{ organization: string; pipeline: string } | null>;
  insert(schedule: PipelineSchedule): Promise<void>;
  update(input: {
    pipelineId: string;
    id: string;
    changes: PipelineScheduleChanges;
  }): Promise<PipelineSchedule | null>;
  delete(pipelineId: string, id: string): Promise<boolean>;
  /** A window of the ids of the builds the schedule made, newest first, and how many it made. */
  buildsOf(input: { scheduleId: string; offset: number; limit: number }): Promise<{
    ids: string[];
    totalCount: number;
  }>;
  /** The schedule that made each of these builds (build id → schedule id), for those a schedule made. */
  ofBuilds(buildIds: readonly string[]): Promise<Map<string, string>>;
  /**
   * In one transaction: locks one enabled schedule due at `at` (skipping those another process holds),
   * runs `tick` with repositories on that transaction, records its outcome (the next tick, the failure,
   * which schedule made the build) and commits. False when none is due. A tick that throws rolls back
   * everything: the schedule stays due and no build is left.
   */
  claimDue(at: Date, tick: (due: DueSchedule, repos: Repositories) => Promise<TickOutcome>): Promise<boolean>;
}
