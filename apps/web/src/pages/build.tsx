import type { RetryableJobState } from '@ci/trpc';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { api, type Build, buildIsLive, type Job, queryClient } from '../api';
import { JobLog } from '../job-log';
import { Link, navigate, useLocation, useTitle } from '../router';
import { duration, ErrorMessage, Loaded, OrganizationNav, StateBadge, When } from '../ui';
import { UnblockForm } from '../unblock-form';

// The domain's list, as keys the compiler checks against its type (a state added there fails here).
const RETRYABLE: Record<RetryableJobState, true> = {
  passed: true,
  failed: true,
  canceled: true,
  broken: true,
  expired: true,
  timed_out: true,
  lost: true,
};

interface BuildKey {
  organization: string;
  pipeline: string;
  number: string;
}

function refresh() {
  return queryClient.invalidateQueries({ queryKey: ['builds.get'] });
}

/** Its own component: a row without the button (most of a big build) holds no mutation observer. */
function RetryButton(props: { jobKey: BuildKey & { job: string }; name: string }) {
  const retry = useMutation({ mutationFn: () => api.jobs.retry.mutate(props.jobKey), onSuccess: refresh });
  return (
    <>
      <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
        Retry<span className="visually-hidden"> {props.name}</span>
      </button>
      <ErrorMessage error={retry.error} />
    </>
  );
}

interface WindowedPlace {
  index: number;
  of: number;
  top: number;
  measure: (element: HTMLLIElement | null) => void;
}

function JobRow(props: { buildKey: BuildKey; job: Job; open: boolean; windowed?: WindowedPlace }) {
  const { job, buildKey } = props;
  const [open, setOpen] = useState(props.open);
  const key = { ...buildKey, job: job.id };
  const [unblocking, setUnblocking] = useState(false);
  // In a windowed list each row is placed by its offset, measured, and says where it is among all.
  const windowed = props.windowed;
  const place = windowed
    ? {
        ref: windowed.measure,
        'data-index': windowed.index,
        'aria-posinset': windowed.index + 1,
        'aria-setsize': windowed.of,
        style: { transform: `translateY(${windowed.top}px)` },
      }
    : {};
  if (job.type === 'waiter') return <li className="job waiter" aria-label="Wait step" {...place} />;
  const name = job.name ?? job.command ?? job.type;
  return (
    <li id={job.id} className={`job job-${job.state}`} {...place}>
      <div className="job-head">
        <StateBadge state={job.state} />
        <span className="job-name">{name}</span>
        <span className="muted small">{duration(job.started_at, job.finished_at)}</span>
        {job.exit_status !== null ? <span className="muted small">exit {job.exit_status}</span> : null}
        {job.retried ? <span className="muted small">retried</span> : null}
        <span className="actions">
          {job.type === 'script' ? (
            <button type="button" className="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? 'Hide log' : 'Show log'}
              <span className="visually-hidden"> of {name}</span>
            </button>
          ) : null}
          {job.type === 'script' && !job.retried && Object.hasOwn(RETRYABLE, job.state) ? (
            <RetryButton jobKey={key} name={name} />
          ) : null}
          {job.type === 'manual' && job.state === 'blocked' ? (
            <button type="button" aria-expanded={unblocking} onClick={() => setUnblocking(!unblocking)}>
              Unblock<span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
        </span>
      </div>
      {unblocking && job.type === 'manual' && job.state === 'blocked' ? (
        <UnblockForm
          jobKey={key}
          name={name}
          onDone={() => {
            setUnblocking(false);
            return refresh();
          }}
          onCancel={() => setUnblocking(false)}
        />
      ) : null}
      {open && job.type === 'script' ? (
        <JobLog
          organization={buildKey.organization}
          pipeline={buildKey.pipeline}
          number={Number(buildKey.number)}
          job={job.id}
          key={`${job.id}-${job.finished_at !== null}`}
        />
      ) : null}
    </li>
  );
}

/** From this many jobs on, only the rows near the window are rendered (a build of hundreds of jobs). */
const WINDOWED_FROM = 150;

function JobList(props: { buildKey: BuildKey; jobs: Job[]; hash: string }) {
  const { jobs, buildKey, hash } = props;
  if (jobs.length < WINDOWED_FROM) {
    return (
      <ol className="jobs">
        {jobs.map((job) => (
          <JobRow key={job.id} buildKey={buildKey} job={job} open={hash === job.id} />
        ))}
      </ol>
    );
  }
  return <WindowedJobList {...props} />;
}

/**
 * The rows of a big build as the window scrolls (@tanstack/react-virtual): each measured as it renders
 * (an open log or unblock form makes it taller), a `#job` address scrolled to.
 */
function WindowedJobList(props: { buildKey: BuildKey; jobs: Job[]; hash: string }) {
  const { jobs, buildKey, hash } = props;
  const list = useRef<HTMLOListElement>(null);
  const virtualizer = useWindowVirtualizer({
    count: jobs.length,
    estimateSize: () => 52,
    gap: 8,
    overscan: 8,
    scrollMargin: list.current?.offsetTop ?? 0,
    getItemKey: (index) => jobs[index]?.id ?? index,
  });
  const target = jobs.findIndex((job) => job.id === hash);
  useEffect(() => {
    if (target >= 0) virtualizer.scrollToIndex(target, { align: 'start' });
  }, [target, virtualizer]);
  const rows = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;
  return (
    <ol className="jobs windowed" ref={list} style={{ height: virtualizer.getTotalSize() }}>
      {rows.map((row) => {
        const job = jobs[row.index] as Job;
        return (
          <JobRow
            key={row.key}
            buildKey={buildKey}
            job={job}
            open={hash === job.id}
            windowed={{
              index: row.index,
              of: jobs.length,
              top: row.start - margin,
              measure: virtualizer.measureElement,
            }}
          />
        );
      })}
    </ol>
  );
}

function AnnotationBody(props: { style: string; html: string }) {
  const body = { __html: props.html };
  // biome-ignore lint/security/noDangerouslySetInnerHtml: body_html was sanitised by the server when written
  return <div className={`annotation annotation-${props.style}`} dangerouslySetInnerHTML={body} />;
}

function Annotations(props: { buildKey: BuildKey }) {
  const annotations = useQuery({
    queryKey: ['annotations.list', props.buildKey],
    queryFn: () => api.annotations.list.query(props.buildKey),
    refetchInterval: 5000,
  });
  const list = annotations.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="annotations">
      <h2 id="annotations">Annotations</h2>
      {list.map((annotation) => (
        <AnnotationBody key={annotation.id} style={annotation.style} html={annotation.body_html} />
      ))}
    </section>
  );
}

function Artifacts(props: { buildKey: BuildKey }) {
  const artifacts = useQuery({
    queryKey: ['artifacts.listOfBuild', props.buildKey],
    queryFn: () => api.artifacts.listOfBuild.query(props.buildKey),
    refetchInterval: 5000,
  });
  const list = artifacts.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="artifacts">
      <h2 id="artifacts">Artifacts</h2>
      <ul>
        {list.map((artifact) => (
          <li key={artifact.id}>
            {artifact.path}{' '}
            <span className="muted small">
              ({artifact.file_size} bytes, {artifact.state})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function BuildActions(props: { buildKey: BuildKey; build: Build }) {
  const { buildKey, build } = props;
  const cancel = useMutation({ mutationFn: () => api.builds.cancel.mutate(buildKey), onSuccess: refresh });
  const rebuild = useMutation({
    mutationFn: () => api.builds.rebuild.mutate(buildKey),
    onSuccess: (next) => navigate(`/${buildKey.organization}/${buildKey.pipeline}/builds/${next.number}`),
  });
  const live = ['scheduled', 'running', 'creating', 'failing'].includes(build.state) || build.blocked;
  return (
    <div className="actions">
      {live ? (
        <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
          Cancel build
        </button>
      ) : (
        <button type="button" onClick={() => rebuild.mutate()} disabled={rebuild.isPending}>
          Rebuild
        </button>
      )}
      <ErrorMessage error={cancel.error ?? rebuild.error} />
    </div>
  );
}

export function BuildPage(props: BuildKey) {
  const { organization, pipeline, number } = props;
  const { hash } = useLocation();
  const buildKey = { organization, pipeline, number };
  const build = useQuery({
    queryKey: ['builds.get', buildKey],
    queryFn: () => api.builds.get.query({ ...buildKey, include_retried_jobs: 'true' }),
    refetchInterval: (query) => (query.state.data && !buildIsLive(query.state.data) ? 10_000 : 2000),
  });
  useTitle(`${pipeline} #${number}`);
  return (
    <Loaded query={build}>
      {(b) => (
        <>
          <p className="crumbs">
            <Link href={`/${organization}`}>{organization}</Link> /{' '}
            <Link href={`/${organization}/${pipeline}`}>{pipeline}</Link> /
          </p>
          <OrganizationNav organization={organization} current="Pipelines" />
          <header className="build-header">
            <h1>
              <StateBadge state={b.state} blocked={b.blocked} /> Build #{b.number}
            </h1>
            <p className="message">{b.message || '(no message)'}</p>
            <dl className="facts">
              <dt>Branch</dt>
              <dd>{b.branch}</dd>
              <dt>Commit</dt>
              <dd>
                <code>{b.commit}</code>
              </dd>
              <dt>Created by</dt>
              <dd>{b.creator?.name ?? b.author?.name ?? '—'}</dd>
              <dt>Created</dt>
              <dd>
                <When at={b.created_at} />
              </dd>
              <dt>Started</dt>
              <dd>
                <When at={b.started_at} />
              </dd>
              <dt>Finished</dt>
              <dd>
                <When at={b.finished_at} />
              </dd>
              <dt>Duration</dt>
              <dd>{duration(b.started_at, b.finished_at) || '—'}</dd>
            </dl>
            <BuildActions buildKey={buildKey} build={b} />
          </header>
          <Annotations buildKey={buildKey} />
          <section aria-labelledby="jobs">
            <h2 id="jobs">Jobs</h2>
            <JobList buildKey={buildKey} jobs={b.jobs ?? []} hash={hash} />
          </section>
          <Artifacts buildKey={buildKey} />
          {Object.keys(b.meta_data).length ? (
            <section aria-labelledby="meta-data">
              <h2 id="meta-data">Meta-data</h2>
              <dl className="facts">
                {Object.entries(b.meta_data).map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ) : null}
        </>
      )}
    </Loaded>
  );
}
