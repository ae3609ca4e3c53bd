import { useQuery } from '@tanstack/react-query';
import { api, type Outputs } from '../api';
import { Link, useTitle } from '../router';
import { Loaded, OrganizationNav, StateBadge, When } from '../ui';

type Pipeline = Outputs['pipelines']['list'][number];

function LatestBuild(props: { organization: string; pipeline: Pipeline }) {
  const input = {
    organization: props.organization,
    pipeline: props.pipeline.slug,
    per_page: '1',
    exclude_jobs: 'true',
  };
  const builds = useQuery({
    queryKey: ['builds.listForPipeline', input],
    queryFn: () => api.builds.listForPipeline.query(input),
    refetchInterval: 5000,
  });
  const latest = builds.data?.[0];
  if (!latest) return <span className="muted">{builds.isPending ? '…' : 'No builds yet'}</span>;
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
                        Latest: <LatestBuild organization={organization} pipeline={pipeline} />
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
