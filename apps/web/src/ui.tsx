import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { messageOf, statusOf } from './api';
import { Link, navigate, useTitle } from './router';

/** A state as a badge: its word, never colour alone. */
export function StateBadge(props: { state: string; blocked?: boolean }) {
  const state = props.blocked ? 'blocked' : props.state;
  return <span className={`badge state-${state}`}>{state.replaceAll('_', ' ')}</span>;
}

export function NotFound() {
  useTitle('Not found');
  return (
    <section aria-labelledby="not-found">
      <h1 id="not-found">404: not found</h1>
      <p>There is nothing here, or nothing you may see.</p>
    </section>
  );
}

/** Sends a signed-out visitor to the sign-in page, coming back here afterwards. */
function SignInFirst() {
  useEffect(() => {
    const here = `${window.location.pathname}${window.location.search}`;
    navigate(`/sign-in?next=${encodeURIComponent(here)}`, { replace: true });
  }, []);
  return null;
}

/** What a query shows: its data, or the page its failure calls for (sign in, 404, the message). */
export function Loaded<T>(props: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { query } = props;
  if (query.isPending) {
    return (
      <p role="status" className="muted">
        Loading…
      </p>
    );
  }
  if (query.isError) {
    const status = statusOf(query.error);
    if (status === 401) return <SignInFirst />;
    if (status === 404) return <NotFound />;
    return <p role="alert">{messageOf(query.error)}</p>;
  }
  return <>{props.children(query.data)}</>;
}

export function ErrorMessage(props: { error: unknown }) {
  if (!props.error) return null;
  return (
    <p role="alert" className="error">
      {messageOf(props.error)}
    </p>
  );
}

export function When(props: { at: string | null | undefined }) {
  if (!props.at) return <span className="muted">—</span>;
  const at = new Date(props.at);
  return <time dateTime={props.at}>{at.toLocaleString()}</time>;
}

/** How long something ran: started to finished, or to now while it runs. */
export function duration(
  startedAt: string | null | undefined,
  finishedAt: string | null | undefined,
): string {
  if (!startedAt) return '';
  const end = finishedAt ? new Date(finishedAt).getTime() : Date.now();
  const seconds = Math.max(0, Math.round((end - new Date(startedAt).getTime()) / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes}m ${seconds % 60}s` : `${seconds}s`;
}

export function OrganizationNav(props: { organization: string; current: string }) {
  const links = [
    ['Pipelines', `/${props.organization}`],
    ['Agents', `/organizations/${props.organization}/agents`],
    ['Teams', `/organizations/${props.organization}/teams`],
    ['Registries', `/organizations/${props.organization}/packages/registries`],
  ] as const;
  return (
    <nav aria-label="Organization" className="org-nav">
      {links.map(([label, href]) => (
        <Link key={href} href={href} aria-current={props.current === label ? 'page' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

/** A form's submit button (disabled while its call runs) and the button that closes it. */
export function FormActions(props: {
  submit: string;
  pending: boolean;
  onClose: () => void;
  close?: string;
}) {
  return (
    <div className="actions">
      <button type="submit" disabled={props.pending}>
        {props.submit}
      </button>
      <button type="button" className="secondary" onClick={props.onClose}>
        {props.close ?? 'Close'}
      </button>
    </div>
  );
}
