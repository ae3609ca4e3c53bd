import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Build, buildIsLive, type Job, queryClient } from '../api';
import { JobLog } from '../job-log';
import { Link, navigate, useLocation, useTitle } from '../router';
import { duration, ErrorMessage, Loaded, OrganizationNav, StateBadge, When } from '../ui';
import { UnblockForm } from '../unblock-form';

const RETRYABLE = new Set(['failed', 'timed_out', 'canceled', 'expired', 'broken']);
const FINISHED_JOB = new Set(['passed', 'failed', 'canceled', 'timed_out', 'skipped', 'broken', 'expired']);

interface BuildKey {
  organization: string;
  pipeline: string;
  number: string;
}

function refresh() {
  return queryClient.invalidateQueries({ queryKey: ['builds.get'] });
}

function JobRow(props: { buildKey: BuildKey; job: Job; open: boolean }) {
  const { job, buildKey } = props;
  const [open, setOpen] = useState(props.open);
  const key = { ...buildKey, job: job.id };
  const retry = useMutation({ mutationFn: () => api.jobs.retry.mutate(key), onSuccess: refresh });
  const [unblocking, setUnblocking] = useState(false);
  if (job.type === 'waiter') return <li className="job waiter" aria-label="Wait step" />;
  const name = job.name ?? job.command ?? job.type;
  return (
    <li id={job.id} className={`job job-${job.state}`}>
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
          {job.type === 'script' && !job.retried && RETRYABLE.has(job.state) ? (
            <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
              Retry<span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
          {job.type === 'manual' && job.state === 'blocked' ? (
            <button type="button" aria-expanded={unblocking} onClick={() => setUnblocking(!unblocking)}>
              Unblock<span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
        </span>
      </div>
      <ErrorMessage error={retry.error} />
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
          key={`${job.id}-${FINISHED_JOB.has(job.state)}`}
        />
      ) : null}
    </li>
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
            <ol className="jobs">
              {(b.jobs ?? []).map((job) => (
                <JobRow key={job.id} buildKey={buildKey} job={job} open={hash === job.id} />
              ))}
            </ol>
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
