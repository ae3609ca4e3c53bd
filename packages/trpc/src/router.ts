import { buildsRouter } from './builds/builds.router';
import { router } from './trpc';

/** Every procedure: typed tRPC under /trpc, and through its OpenAPI metadata, REST under /v2. */
export const appRouter = router({
  builds: buildsRouter,
});

export type AppRouter = typeof appRouter;
