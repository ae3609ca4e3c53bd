import { useQuery } from '@tanstack/react-query';
import { api, type Outputs } from '../api';
import { Link, useTitle } from '../router';
import { Loaded, OrganizationNav, StateBadge, When } from '../ui';

type Pipeline = Outputs['pipelines']['list'][number];
type LatestBuilds = Outputs['builds']['latestOfPipelines'];

function LatestBuild(props: {
  organization: string;
  pipeline: Pipeline;
  latest: LatestBuilds[number]['build'] | undefined;
}) {
  const { latest } = props;
  if (!latest) return <span className="muted">{latest === undefined ? '…' : 'No builds yet'}</span>;
  return (
    <Link href={`/${props.organization}/${props.pipeline.slug}/builds/${latest.number}`}>
      <StateBadge state={latest.state} blocked={latest.blocked} /> #{latest.number} {latest.message ?? ''}
    </Link>
  );
}

export function OrganizationPage(props: { organization: string }) {
  const { organization } = props;
  const org = useQuery({
    queryKey: ['organizations.get', organization],
    queryFn: () => api.organizations.get.query({ organization }),
  });
  const pipelines = useQuery({
    queryKey: ['pipelines.list', organization],
    queryFn: () => api.pipelines.list.query({ organization, per_page: '100' }),
  });
  // The latest build of every pipeline on the page, in one call that polls.
  const pipelineIds = pipelines.data?.map((pipeline) => pipeline.id) ?? [];
  const latest = useQuery({
    queryKey: ['builds.latestOfPipelines', pipelineIds],
    queryFn: () => api.builds.latestOfPipelines.query({ pipeline_ids: pipelineIds }),
    enabled: pipelineIds.length > 0,
    refetchInterval: 5000,
  });
  const latestOf = new Map(latest.data?.map((entry) => [entry.pipeline_id, entry.build]));
  useTitle(org.data?.name ?? organization);
  return (
    <Loaded query={org}>
      {(found) => (
        <>
          <h1>{found.name}</h1>
          <OrganizationNav organization={organization} current="Pipelines" />
          <Loaded query={pipelines}>
            {(list) =>
              list.length === 0 ? (
                <p>No pipelines you may see.</p>
              ) : (
                <ul className="cards" aria-label="Pipelines">
                  {list.map((pipeline) => (
                    <li key={pipeline.id} className="card">
                      <h2>
                        <Link href={`/${organization}/${pipeline.slug}`}>{pipeline.name}</Link>
                      </h2>
                      <p className="muted">{pipeline.description || pipeline.repository}</p>
                      <p>
                        Latest:{' '}
                        <LatestBuild
                          organization={organization}
                          pipeline={pipeline}
                          latest={latest.isPending ? undefined : (latestOf.get(pipeline.id) ?? null)}
                        />
                      </p>
                      <p className="muted small">
                        Created <When at={pipeline.created_at} />
                      </p>
                    </li>
                  ))}
                </ul>
              )
            }
          </Loaded>
        </>
      )}
    </Loaded>
  );
}
