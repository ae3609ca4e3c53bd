import type { AppRouter } from '@ci/trpc';
import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

export type Inputs = inferRouterInputs<AppRouter>;
export type Outputs = inferRouterOutputs<AppRouter>;
export type Build = Outputs['builds']['get'];
export type Job = NonNullable<Build['jobs']>[number];

/** The session's CSRF token: in the page shell's meta tag, or given by a sign-in on this page. */
let csrfToken = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

export function rememberCsrfToken(token: string): void {
  csrfToken = token;
}

export function currentCsrfToken(): string {
  return csrfToken;
}

/**
 * The typed client of /trpc, as the signed-in user: the session cookie goes with every call (same origin),
 * the CSRF token in a header, which changes need.
 */
export const api = createTRPCClient<AppRouter>({
  links: [httpLink({ url: '/trpc', headers: () => ({ 'x-csrf-token': csrfToken }) })],
});

/** The HTTP status a failed call answered; null for one that never reached the server. */
export function statusOf(error: unknown): number | null {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
    return typeof status === 'number' ? status : null;
  }
  return null;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong';
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx stays what it is (sign in, not found, forbidden); only network failures are tried again.
      retry: (failures, error) => statusOf(error) === null && failures < 2,
      refetchOnWindowFocus: true,
    },
  },
});

const FINISHED = new Set(['passed', 'failed', 'canceled', 'skipped', 'not_run']);

/** Whether a build will still change by itself (so its page keeps asking). */
export function buildIsLive(build: Pick<Build, 'state' | 'blocked'>): boolean {
  return !FINISHED.has(build.state) || build.blocked;
}
