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

/** The server's refusal as one line (`403 Forbidden`), or null when the error is not the server's answer. */
export function remoteFailure(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  return status ? `${status} ${error.message}` : error.message;
}
