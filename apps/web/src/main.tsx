import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { currentCsrfToken, queryClient, rememberCsrfToken } from './api';
import { BuildPage } from './pages/build';
import { OrganizationPage } from './pages/organization';
import {
  AgentPage,
  AgentsPage,
  ClusterPage,
  RegistriesPage,
  RegistryPage,
  TeamsPage,
} from './pages/organization-resources';
import { PipelinePage } from './pages/pipeline';
import { SignIn } from './pages/sign-in';
import { match, navigate, useLocation } from './router';
import { NotFound } from './ui';
import './styles.css';

type Params = Record<string, string>;

/** The pages by path, the most specific first: the same paths as the server's (web-app.ts). */
const PAGES: [string, (params: Params) => ReactNode][] = [
  ['/sign-in', () => <SignIn />],
  ['/organizations/:organization/agents', (p) => <AgentsPage organization={p.organization as string} />],
  [
    '/organizations/:organization/agents/:agent',
    (p) => <AgentPage organization={p.organization as string} agent={p.agent as string} />,
  ],
  ['/organizations/:organization/teams', (p) => <TeamsPage organization={p.organization as string} />],
  [
    '/organizations/:organization/packages/registries',
    (p) => <RegistriesPage organization={p.organization as string} />,
  ],
  [
    '/organizations/:organization/packages/registries/:registry',
    (p) => <RegistryPage organization={p.organization as string} registry={p.registry as string} />,
  ],
  [
    '/organizations/:organization/clusters/:cluster',
    (p) => <ClusterPage organization={p.organization as string} cluster={p.cluster as string} />,
  ],
  [
    '/:organization/:pipeline/builds/:number',
    (p) => (
      <BuildPage
        key={`${p.pipeline}/${p.number}`}
        organization={p.organization as string}
        pipeline={p.pipeline as string}
        number={p.number as string}
      />
    ),
  ],
  [
    '/:organization/:pipeline/builds',
    (p) => <PipelinePage organization={p.organization as string} pipeline={p.pipeline as string} />,
  ],
  [
    '/:organization/:pipeline',
    (p) => <PipelinePage organization={p.organization as string} pipeline={p.pipeline as string} />,
  ],
  ['/:organization', (p) => <OrganizationPage organization={p.organization as string} />],
];

function SignOut() {
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    await fetch('/sign-out', { method: 'POST', headers: { 'x-csrf-token': currentCsrfToken() } });
    rememberCsrfToken('');
    queryClient.clear();
    setBusy(false);
    navigate('/sign-in');
  };
  return (
    <button type="button" className="secondary" onClick={signOut} disabled={busy}>
      Sign out
    </button>
  );
}

function App() {
  const { path } = useLocation();
  let page: ReactNode = <NotFound />;
  for (const [pattern, render] of PAGES) {
    const params = match(pattern, path);
    if (params) {
      page = render(params);
      break;
    }
  }
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <a href="/" className="brand">
          CI
        </a>
        {path === '/sign-in' ? null : <SignOut />}
      </header>
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </>
  );
}

createRoot(document.getElementById('app') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
