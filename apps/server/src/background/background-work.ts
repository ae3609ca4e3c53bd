import { EventEmitter } from 'node:events';
import type { UseCases } from '@ci/application';
import type { Sql } from '@ci/db';
import type { Transition } from '@ci/domain';
import { presentNotification } from '@ci/trpc';
import { Logger, type Runner, run, type Task, type WorkerEvents } from 'graphile-worker';
import type { ServerConfig } from '../config';
import { webhookSender } from './webhook-sender';

/**
 * The durable background work of this process, on graphile-worker (ADR 0019): every server process runs a
 * runner over the same tables, so any number of processes share the work and each job runs once at a time.
 * The triggers of Migration20261127170000 queue `notification_fan_out` in the transaction of each change;
 * `pipeline_schedules_tick` runs every `scheduleTickMs`, making one build per due schedule (ADR 0024);
 * the fan-out queues one `notification_delivery` per service that wants the event; a delivery's attempts
 * are jobs too (the retry is queued in the transaction that records the failure).
 *
 * graphile-worker frees a dead process's locked jobs only after four hours; so each process records its
 * workers' ids with a heartbeat (`background_workers`), and any process frees the jobs of workers not heard
 * from for `staleAfterMs` with graphile-worker's `force_unlock_workers`: a server killed mid-delivery has
 * that delivery sent again (at least once; the delivery id lets receivers drop the repeat).
 */

interface RawTransition {
  kind: Transition['kind'];
  id: string;
  organization_id: string;
  state: string;
  previous: string | null;
  event_id: string;
  at: string;
}

/** The pipeline schedules' tick (ADR 0024): claims due schedules and makes their builds. */
const SCHEDULE_TICK = 'pipeline_schedules_tick';
/** Schedules one tick runs at most; the rest wait for the next (a tick never holds a worker long). */
const SCHEDULES_PER_TICK = 100;

export interface BackgroundWork {
  stop(): Promise<void>;
}

export async function startBackgroundWork(input: {
  databaseUrl: string;
  sql: Sql;
  useCases: UseCases;
  config: Pick<ServerConfig, 'backgroundWork' | 'webhooks' | 'publicUrls'>;
  log: { error(details: object, message: string): void };
}): Promise<BackgroundWork> {
  const { sql, useCases, config, log } = input;
  const send = webhookSender(config.webhooks);
  const policy = { maxAttempts: config.webhooks.maxAttempts, retryBaseMs: config.webhooks.retryBaseMs };

  const taskList: Record<string, Task> = {
    async notification_fan_out(payload) {
      const transitions = ((payload as { transitions?: RawTransition[] }).transitions ?? []).map(
        (raw): Transition => ({
          kind: raw.kind,
          id: raw.id,
          organizationId: raw.organization_id,
          state: raw.state,
          previous: raw.previous,
          eventId: raw.event_id,
          at: raw.at,
        }),
      );
      const notifications = await useCases.background.notificationsFor(transitions);
      await useCases.background.queueNotifications(
        notifications.map((notification) => ({
          ...notification,
          body: presentNotification(notification, config.publicUrls),
        })),
      );
    },
    async notification_delivery(payload) {
      // A first attempt comes in a batch job (an array of deliveries), a later one as a job of its own.
      // Each failed send is tried again by our own backoff (recorded with the attempt), not by the job.
      const items = (Array.isArray(payload) ? payload : [payload]) as { delivery_id?: string }[];
      const ids = items.flatMap((item) => (item.delivery_id ? [item.delivery_id] : []));
      if (ids.length) await useCases.background.attemptDeliveries(ids, send, policy);
    },
    async [SCHEDULE_TICK](_payload, helpers) {
      try {
        await useCases.background.runDueSchedules(SCHEDULES_PER_TICK);
      } finally {
        // The next tick, whatever this one did: one pending tick job at a time, by its key.
        await helpers.addJob(
          SCHEDULE_TICK,
          {},
          {
            jobKey: SCHEDULE_TICK,
            runAt: new Date(Date.now() + config.backgroundWork.scheduleTickMs),
            maxAttempts: 1,
          },
        );
      }
    },
  };

  const workerIds = new Set<string>();
  const events: WorkerEvents = new EventEmitter();
  // Jobs are locked in the name of the pool (graphile-worker 0.18), a job queue's by a worker: both kept.
  events.on('pool:create', ({ workerPool }) => workerIds.add(workerPool.id));
  events.on('worker:create', ({ worker }) => workerIds.add(worker.workerId));
  events.on('job:error', ({ job, error }) =>
    log.error({ err: error, task: job.task_identifier, jobId: job.id }, 'background job failed'),
  );

  const runner: Runner = await run({
    connectionString: input.databaseUrl,
    // Its own small pool: a listening connection and one per concurrent job, off the requests' pool.
    maxPoolSize: config.backgroundWork.concurrency + 2,
    concurrency: config.backgroundWork.concurrency,
    pollInterval: config.backgroundWork.pollMs,
    noHandleSignals: true,
    taskList,
    events,
    logger: new Logger((scope) => (level, message, meta) => {
      if (level === 'error') log.error({ scope, meta }, message);
    }),
  });

  // The schedules' tick runs as a job that queues its successor; each process makes sure one is queued
  // (keeping its time when one is), so the tick survives restarts and runs in whichever process is free.
  await runner.addJob(
    SCHEDULE_TICK,
    {},
    { jobKey: SCHEDULE_TICK, jobKeyMode: 'preserve_run_at', maxAttempts: 1 },
  );

  const staleAfterSeconds = config.backgroundWork.staleAfterMs / 1000;
  async function heartbeat() {
    const ids = [...workerIds];
    if (ids.length) {
      await sql.query(
        `insert into background_workers (worker_id, seen_at) select unnest($1::text[]), now()
         on conflict (worker_id) do update set seen_at = excluded.seen_at`,
        [ids],
      );
    }
    // Jobs a silent process held are handed back to the queue.
    await sql.query(
      `with stale as (
         delete from background_workers where seen_at < now() - make_interval(secs => $1) returning worker_id
       )
       select graphile_worker.force_unlock_workers(array(select worker_id from stale))`,
      [staleAfterSeconds],
    );
  }
  const beat = () => heartbeat().catch((error) => log.error({ err: error }, 'background heartbeat failed'));
  await beat();
  const timer = setInterval(beat, config.backgroundWork.heartbeatMs);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      // Lets running jobs finish (a delivery is bounded by its timeout), then forgets this process.
      await runner.stop();
      if (workerIds.size) {
        await sql
          .query('delete from background_workers where worker_id = any($1::text[])', [[...workerIds]])
          .catch(() => {});
      }
    },
  };
}
