// The bundles of the server (`pnpm start`, docs/adr/0015-server-start.md) and of the CLI (its tests run
// it, `test/support/cli.ts`): our workspace packages bundled, every package from node_modules left as an
// import of the very file Node would load for its importer.
import { defineConfig, type UserConfig } from 'tsdown';

/** `apps/<app>/src/main.ts` bundled into `apps/<app>/dist/main.mjs`. */
const bundle = (app: string): UserConfig => ({
  entry: { main: `apps/${app}/src/main.ts` },
  outDir: `apps/${app}/dist`,
  platform: 'node',
  format: 'esm',
  sourcemap: true,
  dts: false,
  // A server already running may still import a chunk of its own build later: never delete one.
  clean: false,
  deps: {
    // Resolved by Node's rules from the importing package, then written as a path relative to the
    // bundle (pnpm's node_modules are per package, so a bare name would not resolve from dist/).
    neverBundle: (id, _importer, isResolved) => Boolean(isResolved) && id.includes('/node_modules/'),
    onlyBundle: false,
  },
  inputOptions: { makeAbsoluteExternalsRelative: true },
  // Node keeps each module's source in the heap: without doc comments, and with non-ASCII characters
  // escaped, V8 holds it at one byte a character rather than two (the source maps keep the comments).
  outputOptions: { comments: { jsdoc: false, legal: true, annotation: true }, charset: 'ascii' },
  report: false,
});

export default defineConfig([bundle('server'), bundle('cli')]);
