import { z } from 'zod';
import { documented } from '../documented';
import { authed, router } from '../trpc';
import { presentAccessToken } from './access-token.presenter';
import { AccessTokenWire } from './access-token.wire';

const ACCESS_TOKEN = '/access-token';
const TAGS = ['Access token'];

export const accessTokenRouter = router({
  get: authed
    .meta({
      openapi: {
        method: 'GET',
        path: ACCESS_TOKEN,
        tags: TAGS,
        summary: 'Get the current token',
        description: 'The token the request is made with; any valid token may read itself.',
      },
      operation: 'getAccessToken',
    })
    .input(z.void())
    .output(documented(AccessTokenWire))
    .query(async ({ ctx }) => presentAccessToken(await ctx.useCases.getAccessToken(ctx.actor))),

  delete: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: ACCESS_TOKEN,
        tags: TAGS,
        summary: 'Revoke the current token',
        description:
          'Revokes the token the request is made with: from the next request on, in every server process, it answers 401.',
      },
      operation: 'deleteAccessToken',
      successStatus: 204,
    })
    .input(z.void())
    .output(z.void())
    .mutation(async ({ ctx }) => {
      await ctx.useCases.deleteAccessToken(ctx.actor);
    }),
});
