import type { TrpcContext } from './trpc';

/**
 * The query parameters of a call, in one form for both transports: on REST the raw query string (so
 * `state[]=`, `state[0]=` and `meta_data[k]=` survive), over tRPC the input's non-path keys, whose
 * names are the REST parameter names.
 */
export function queryParameters(
  ctx: Pick<TrpcContext, 'rest'>,
  input: Record<string, unknown>,
  pathKeys: readonly string[],
): URLSearchParams {
  if (ctx.rest) return ctx.rest.query;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (pathKeys.includes(key) || value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  return params;
}
