import type { Actor, UseCases } from '@ci/application';
import { type Operation, scopeFor } from '@ci/domain';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';

export interface PublicUrls {
  api: string;
  web: string;
}

/** What every procedure sees; `response` is how procedures set status and headers on the REST side. */
export interface TrpcContext {
  useCases: UseCases;
  urls: PublicUrls;
  authorization: string | undefined;
  /** The raw query string on REST (every array encoding clients send); null over tRPC. */
  query: URLSearchParams | null;
  response: { headers: Record<string, string> };
}

export type Meta = OpenApiMeta<{ successStatus?: 200 | 201 | 204; operation?: Operation }>;

const t = initTRPC.context<TrpcContext>().meta<Meta>().create();

export const router = t.router;

/** Authenticates, and advertises the token's scopes and the scope the operation accepts. */
export const authed = t.procedure.use(async ({ ctx, meta, next }) => {
  const accepted = meta?.operation ? scopeFor(meta.operation) : null;
  if (accepted) ctx.response.headers['X-Accepted-OAuth-Scopes'] = accepted;
  const actor: Actor = await ctx.useCases.authenticate(ctx.authorization);
  ctx.response.headers['X-OAuth-Scopes'] = actor.scopes.join(', ');
  return next({ ctx: { ...ctx, actor } });
});
