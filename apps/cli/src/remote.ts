import type { AppRouter } from '@ci/trpc';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';

export type RemoteClient = ReturnType<typeof remoteClient>;

/** A typed client of a running server's `/trpc`, authenticated with an API access token. */
export function remoteClient(input: { url: string; token: string }) {
  const base = input.url.replace(/\/+$/, '');
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: { Authorization: `Bearer ${input.token}` } })],
  });
}

/** The deepest `cause`: for `fetch failed`, the socket's own error (`connect ECONNREFUSED …`). */
function rootCause(error: Error): Error & { code?: string } {
  let at: Error = error;
  while (at.cause instanceof Error) at = at.cause;
  return at;
}

/**
 * The server's refusal as one line (`403 Forbidden`); a server that could not be reached or did not
 * answer as one, named with its URL and the cause; null when the error is not about the server.
 */
export function remoteFailure(error: unknown, url: string): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  if (status) return `${status} ${error.message}`;
  const cause = rootCause(error);
  if (cause !== error) {
    // An AggregateError (every address of a name refused) has no message of its own, only a code.
    const reason = cause.message || cause.code || cause.name;
    return `cannot reach ${url}: ${reason}`;
  }
  return `${url} did not answer as a CI server: ${error.message}`;
}
