import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

/**
 * `graphql` ships CommonJS (`main`) and ESM (`module`) copies; Node loads the CommonJS one for the
 * libraries built on it (Pothos, graphql-yoga), Vite would pick the ESM one for our sources, and two
 * copies cannot share a schema. Our sources get the one Node loads, as they do outside the tests.
 */
const graphql = createRequire(new URL('./packages/graphql/package.json', import.meta.url)).resolve('graphql');
const resolve = { alias: [{ find: /^graphql$/, replacement: graphql }] };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          include: [
            'packages/*/src/**/*.int.test.ts',
            'apps/*/src/**/*.int.test.ts',
            'test/**/*.int.test.ts',
          ],
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
