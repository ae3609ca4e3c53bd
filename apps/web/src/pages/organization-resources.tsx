import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { Link, useTitle } from '../router';
import { Loaded, OrganizationNav, StateBadge, When } from '../ui';

export function AgentsPage(props: { organization: string }) {
  const { organization } = props;
  useTitle(`Agents · ${organization}`);
  const agents = useQuery({
    queryKey: ['agents.list', organization],
    queryFn: () => api.agents.list.query({ organization, per_page: '100' }),
    refetchInterval: 5000,
  });
  return (
    <>
      <h1>Agents</h1>
      <OrganizationNav organization={organization} current="Agents" />
      <Loaded query={agents}>
        {(list) =>
          list.length === 0 ? (
            <p>No agents are connected.</p>
          ) : (
            <ul className="cards" aria-label="Agents">
              {list.map((agent) => (
                <li key={agent.id} className="card">
                  <h2>
                    <Link href={`/organizations/${organization}/agents/${agent.id}`}>{agent.name}</Link>
                  </h2>
                  <p>
                    <StateBadge state={agent.connection_state} /> {agent.hostname ?? ''}{' '}
                    <span className="muted small">{agent.version ?? ''}</span>
                  </p>
                  <p className="muted small">{agent.meta_data.join(' ')}</p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

export function AgentPage(props: { organization: string; agent: string }) {
  const { organization, agent } = props;
  const found = useQuery({
    queryKey: ['agents.get', organization, agent],
    queryFn: () => api.agents.get.query({ organization, agent }),
    refetchInterval: 5000,
  });
  useTitle(found.data?.name ?? 'Agent');
  return (
    <Loaded query={found}>
      {(a) => (
        <>
          <h1>{a.name}</h1>
          <OrganizationNav organization={organization} current="Agents" />
          <dl className="facts">
            <dt>State</dt>
            <dd>
              <StateBadge state={a.connection_state} />
            </dd>
            <dt>Host</dt>
            <dd>{a.hostname ?? '—'}</dd>
            <dt>IP address</dt>
            <dd>{a.ip_address ?? '—'}</dd>
            <dt>Version</dt>
            <dd>{a.version ?? '—'}</dd>
            <dt>Tags</dt>
            <dd>{a.meta_data.join(', ') || '—'}</dd>
            <dt>Connected</dt>
            <dd>
              <When at={a.created_at} />
            </dd>
            <dt>Last job finished</dt>
            <dd>
              <When at={a.last_job_finished_at} />
            </dd>
          </dl>
        </>
      )}
    </Loaded>
  );
}

export function TeamsPage(props: { organization: string }) {
  const { organization } = props;
  useTitle(`Teams · ${organization}`);
  const teams = useQuery({
    queryKey: ['teams.list', organization],
    queryFn: () => api.teams.list.query({ organization, per_page: '100' }),
  });
  return (
    <>
      <h1>Teams</h1>
      <OrganizationNav organization={organization} current="Teams" />
      <Loaded query={teams}>
        {(list) =>
          list.length === 0 ? (
            <p>No teams you may see.</p>
          ) : (
            <ul className="cards" aria-label="Teams">
              {list.map((team) => (
                <li key={team.id} className="card">
                  <h2>{team.name}</h2>
                  <p className="muted">{team.description || team.slug}</p>
                  <p className="small">
                    {team.privacy}
                    {team.default ? ' · default team' : ''}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

export function RegistriesPage(props: { organization: string }) {
  const { organization } = props;
  useTitle(`Registries · ${organization}`);
  const registries = useQuery({
    queryKey: ['registries.list', organization],
    queryFn: () => api.registries.list.query({ organization, per_page: '100' }),
  });
  return (
    <>
      <h1>Package registries</h1>
      <OrganizationNav organization={organization} current="Registries" />
      <Loaded query={registries}>
        {(list) =>
          list.length === 0 ? (
            <p>No registries.</p>
          ) : (
            <ul className="cards" aria-label="Registries">
              {list.map((registry) => (
                <li key={registry.id} className="card">
                  <h2>
                    <Link href={`/organizations/${organization}/packages/registries/${registry.slug}`}>
                      {registry.name}
                    </Link>
                  </h2>
                  <p className="muted">{registry.ecosystem}</p>
                  <p>{registry.description ?? ''}</p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

export function RegistryPage(props: { organization: string; registry: string }) {
  const { organization, registry } = props;
  const found = useQuery({
    queryKey: ['registries.get', organization, registry],
    queryFn: () => api.registries.get.query({ organization, registry }),
  });
  useTitle(found.data?.name ?? registry);
  return (
    <Loaded query={found}>
      {(r) => (
        <>
          <h1>{r.name}</h1>
          <OrganizationNav organization={organization} current="Registries" />
          <dl className="facts">
            <dt>Ecosystem</dt>
            <dd>{r.ecosystem}</dd>
            <dt>Description</dt>
            <dd>{r.description || '—'}</dd>
            <dt>Public</dt>
            <dd>{r.public ? 'yes' : 'no'}</dd>
          </dl>
        </>
      )}
    </Loaded>
  );
}

export function ClusterPage(props: { organization: string; cluster: string }) {
  const { organization, cluster } = props;
  const found = useQuery({
    queryKey: ['clusters.get', organization, cluster],
    queryFn: () => api.clusters.get.query({ organization, cluster }),
  });
  useTitle(found.data?.name ?? 'Cluster');
  return (
    <Loaded query={found}>
      {(c) => (
        <>
          <h1>{c.name}</h1>
          <OrganizationNav organization={organization} current="" />
          <p>{c.description ?? ''}</p>
        </>
      )}
    </Loaded>
  );
}
