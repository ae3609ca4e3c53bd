import { z } from 'zod';
import { documented } from '../documented';
import { authed, router } from '../trpc';
import { presentUser } from './user.presenter';
import { UserWire } from './user.wire';

const TAGS = ['User'];

export const userRouter = router({
  get: authed
    .meta({
      openapi: {
        method: 'GET',
        path: '/user',
        tags: TAGS,
        summary: 'Get the current user',
        description: "The token's user.",
      },
      operation: 'getUser',
    })
    .input(z.void())
    .output(documented(UserWire))
    .query(async ({ ctx }) => presentUser(await ctx.useCases.getUser(ctx.actor))),
});
