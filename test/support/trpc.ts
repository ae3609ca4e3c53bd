import type { AppRouter } from '@ci/trpc';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { expect } from 'vitest';

/** A typed client of `/trpc` on `server`, with the token as a bearer token (none when null). */
export const trpcClient = (server: { baseUrl: string }, token: string | null) =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server.baseUrl}/trpc`,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      }),
    ],
  });

/** The error a call fails with; every tRPC error is checked to carry no stack. */
export async function trpcFailure(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const trpcError = error as TRPCClientError<AppRouter>;
  expect(trpcError.data?.stack).toBeUndefined();
  expect(JSON.stringify(trpcError.shape)).not.toMatch(/\.ts:\d+|node_modules|at [\w.<>]+ \(/);
  return trpcError;
}
