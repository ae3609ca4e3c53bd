import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, queryClient } from '../api';
import { Link, navigate, useLocation, useTitle } from '../router';
import { duration, ErrorMessage, FormActions, Loaded, OrganizationNav, StateBadge, When } from '../ui';

const PER_PAGE = 20;
const STATES = [
  'running',
  'scheduled',
  'passed',
  'failed',
  'blocked',
  'canceled',
  'canceling',
  'skipped',
  'not_run',
  'finished',
];

function NewBuild(props: { organization: string; pipeline: string; defaultBranch: string | null }) {
  const [open, setOpen] = useState(false);
  const create = useMutation({
    mutationFn: (body: { message: string; commit: string; branch: string }) =>
      api.builds.create.mutate({ organization: props.organization, pipeline: props.pipeline, ...body }),
    onSuccess: async (build) => {
      await queryClient.invalidateQueries({ queryKey: ['builds.listForPipeline'] });
      navigate(`/${props.organization}/${props.pipeline}/builds/${build.number}`);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      message: String(form.get('message') ?? ''),
      commit: String(form.get('commit') || 'HEAD'),
      branch: String(form.get('branch') ?? ''),
    });
  };
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New build
      </button>
    );
  }
  return (
    <form onSubmit={submit} className="panel" aria-label="New build">
      <h2>New build</h2>
      <label htmlFor="new-message">Message</label>
      <input id="new-message" name="message" required />
      <label htmlFor="new-commit">Commit</label>
      <input id="new-commit" name="commit" defaultValue="HEAD" />
      <label htmlFor="new-branch">Branch</label>
      <input id="new-branch" name="branch" defaultValue={props.defaultBranch ?? 'main'} required />
      <ErrorMessage error={create.error} />
      <FormActions submit="Create build" pending={create.isPending} onClose={() => setOpen(false)} />
    </form>
  );
}

/** The pipeline's schedules: each tick of a cron expression makes a build (`source: schedule`). */
function Schedules(props: { organization: string; pipeline: string }) {
  const key = { organization: props.organization, pipeline: props.pipeline };
  const [adding, setAdding] = useState(false);
  const schedules = useQuery({
    queryKey: ['pipelineSchedules.list', key],
    queryFn: () => api.pipelineSchedules.list.query(key),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['pipelineSchedules.list'] });
  const create = useMutation({
    mutationFn: (body: { label: string; cronline: string; branch: string | null }) =>
      api.pipelineSchedules.create.mutate({ ...key, ...body }),
    onSuccess: async () => {
      setAdding(false);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (schedule: string) => api.pipelineSchedules.delete.mutate({ ...key, schedule }),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      label: String(form.get('label') ?? ''),
      cronline: String(form.get('cronline') ?? ''),
      branch: String(form.get('branch') ?? '').trim() || null,
    });
  };
  return (
    <section aria-label="Schedules" className="panel">
      <h2>Schedules</h2>
      <Loaded query={schedules}>
        {(list) => (
          <ul className="schedules">
            {list.length === 0 ? <li className="muted">No schedules.</li> : null}
            {list.map((schedule) => (
              <li key={schedule.id}>
                <strong>{schedule.label}</strong> <code>{schedule.cronline}</code>{' '}
                <span className="muted small">
                  {schedule.branch ?? 'default branch'} ·{' '}
                  {schedule.enabled && schedule.next_build_at ? (
                    <>
                      next <When at={schedule.next_build_at} />
                    </>
                  ) : (
                    'disabled'
                  )}
                  {schedule.failed_message ? ` · last tick failed: ${schedule.failed_message}` : ''}
                </span>{' '}
                <button
                  type="button"
                  className="secondary"
                  onClick={() => remove.mutate(schedule.id)}
                  disabled={remove.isPending}
                >
                  Delete<span className="visually-hidden"> {schedule.label}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
      <ErrorMessage error={remove.error} />
      {adding ? (
        <form onSubmit={submit} aria-label="New schedule">
          <label htmlFor="schedule-label">Label</label>
          <input id="schedule-label" name="label" required />
          <label htmlFor="schedule-cronline">Cron expression</label>
          <input id="schedule-cronline" name="cronline" placeholder="0 3 * * * Europe/Berlin" required />
          <label htmlFor="schedule-branch">Branch</label>
          <input id="schedule-branch" name="branch" placeholder="the default branch" />
          <ErrorMessage error={create.error} />
          <FormActions submit="Add schedule" pending={create.isPending} onClose={() => setAdding(false)} />
        </form>
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          New schedule
        </button>
      )}
    </section>
  );
}

export function PipelinePage(props: { organization: string; pipeline: string }) {
  const { organization, pipeline } = props;
  const { search } = useLocation();
  const branch = search.get('branch') ?? '';
  const state = search.get('state') ?? '';
  const creator = search.get('creator') ?? '';
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);

  const found = useQuery({
    queryKey: ['pipelines.get', organization, pipeline],
    queryFn: () => api.pipelines.get.query({ organization, pipeline }),
  });
  const input = {
    organization,
    pipeline,
    page: String(page),
    per_page: String(PER_PAGE),
    exclude_pipeline: 'true',
    ...(branch ? { branch } : {}),
    ...(state ? { state } : {}),
    ...(creator ? { creator } : {}),
  };
  const builds = useQuery({
    queryKey: ['builds.listForPipeline', input],
    queryFn: () => api.builds.listForPipeline.query(input),
    refetchInterval: 3000,
  });
  useTitle(found.data?.name ?? pipeline);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const query = new URLSearchParams();
    for (const key of ['branch', 'state', 'creator']) {
      const value = String(form.get(key) ?? '').trim();
      if (value) query.set(key, value);
    }
    navigate(`/${organization}/${pipeline}/builds${query.size ? `?${query}` : ''}`);
  };
  const pageHref = (to: number) => {
    const query = new URLSearchParams(search);
    query.set('page', String(to));
    return `/${organization}/${pipeline}/builds?${query}`;
  };

  return (
    <Loaded query={found}>
      {(p) => (
        <>
          <p className="crumbs">
            <Link href={`/${organization}`}>{organization}</Link> /
          </p>
          <h1>{p.name}</h1>
          <OrganizationNav organization={organization} current="Pipelines" />
          <p className="muted">{p.repository}</p>
          <NewBuild organization={organization} pipeline={pipeline} defaultBranch={p.default_branch} />
          <form onSubmit={filter} className="filters" aria-label="Filter builds" key={search.toString()}>
            <div>
              <label htmlFor="filter-branch">Branch</label>
              <input id="filter-branch" name="branch" defaultValue={branch} />
            </div>
            <div>
              <label htmlFor="filter-state">State</label>
              <select id="filter-state" name="state" defaultValue={state}>
                <option value="">Any</option>
                {STATES.map((s) => (
                  <option key={s} value={s}>
                    {s.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="filter-creator">Creator (user id)</label>
              <input id="filter-creator" name="creator" defaultValue={creator} />
            </div>
            <button type="submit">Filter</button>
          </form>
          <Loaded query={builds}>
            {(list) => (
              <>
                {list.length === 0 ? <p>No builds match.</p> : null}
                <ol className="builds" aria-label="Builds">
                  {list.map((build) => (
                    <li key={build.id} className="build-row">
                      <StateBadge state={build.state} blocked={build.blocked} />
                      <Link
                        href={`/${organization}/${pipeline}/builds/${build.number}`}
                        className="build-link"
                      >
                        #{build.number} {build.message || '(no message)'}
                      </Link>
                      <span className="muted small">
                        {build.branch} · {build.commit.slice(0, 7)} ·{' '}
                        {build.creator?.name ?? build.author?.name ?? '—'} · <When at={build.created_at} />{' '}
                        {duration(build.started_at, build.finished_at)}
                      </span>
                    </li>
                  ))}
                </ol>
                <nav aria-label="Pages" className="pager">
                  {page > 1 ? <Link href={pageHref(page - 1)}>← Newer</Link> : null}
                  <span>Page {page}</span>
                  {list.length === PER_PAGE ? <Link href={pageHref(page + 1)}>Older →</Link> : null}
                </nav>
              </>
            )}
          </Loaded>
          <Schedules organization={organization} pipeline={pipeline} />
        </>
      )}
    </Loaded>
  );
}
