// Compiles the server for `pnpm start` (docs/adr/0006-precompiled-server-start.md): one ES module,
// apps/server/dist/main.mjs, with our workspace packages (@ci/*, the agent) bundled in and every
// third-party package left as an import of the very file Node would load for it from the importing
// package (a path relative to the output). Running that with plain `node` spares the server tsx's
// loader thread (its own V8 heap with esbuild's compiled sources), ~70 MB of resident memory.
//
// Plain JavaScript, not TypeScript: it runs before anything can be compiled.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = resolve(ROOT, 'apps/server/src/main.ts');
const OUT_DIR = resolve(ROOT, 'apps/server/dist');
const OUT_FILE = resolve(OUT_DIR, 'main.mjs');

/** A specifier for `path` as seen from the output file: `./…` or `../…`, forward slashes. */
function fromOutput(path) {
  const rel = relative(OUT_DIR, path).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Third-party packages stay external, resolved where their importer would find them. */
const externalPackages = {
  name: 'external-packages',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@ci/') || args.path.startsWith('node:') || args.pluginData === 'inner') {
        return undefined;
      }
      const found = await esbuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'inner',
      });
      if (found.errors.length > 0) return { errors: found.errors };
      // Node built-ins imported without `node:` (none today) resolve to no file: keep them as written.
      if (!found.path || !existsSync(found.path)) return { path: args.path, external: true };
      return { path: fromOutput(found.path), external: true };
    });
  },
};

/**
 * `import.meta.dirname` in a bundled file means that file's folder, not the bundle's: rewritten to the
 * source folder, relative to the bundle (packages/db/src/config.ts finds the repository root by it).
 */
const sourceDirname = {
  name: 'source-dirname',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      if (/import\.meta\.(url|filename)/.test(source)) {
        return { errors: [{ text: `${args.path}: import.meta.url/filename would point at the bundle` }] };
      }
      if (!source.includes('import.meta.dirname')) return undefined;
      const dir = JSON.stringify(fromOutput(dirname(args.path)));
      return {
        contents: source.replaceAll('import.meta.dirname', `(__bundleDir + '/' + ${dir})`),
        loader: 'ts',
      };
    });
  },
};

const started = Date.now();
const result = await build({
  entryPoints: [ENTRY],
  outdir: OUT_DIR,
  // What the server imports lazily (GraphQL on its first request) goes to its own file, loaded then.
  splitting: true,
  entryNames: '[name]',
  // Chunks sit beside main.mjs (the relative imports above are from that folder) and are never deleted:
  // a server started from an earlier build may still load its own chunk later.
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Resolve as Node does for `import`: no `module` condition, no `module` main field.
  conditions: [],
  mainFields: ['main'],
  sourcemap: 'linked',
  banner: {
    js: "import { dirname as __bundleDirname } from 'node:path'; import { fileURLToPath as __bundleFileUrl } from 'node:url'; const __bundleDir = __bundleDirname(__bundleFileUrl(import.meta.url));",
  },
  plugins: [externalPackages, sourceDirname],
  logLevel: 'warning',
  // Written below, each file whole: a server started meanwhile (another `pnpm start`) never reads half a file.
  write: false,
});
mkdirSync(OUT_DIR, { recursive: true });
for (const file of result.outputFiles) {
  const partial = `${file.path}.${process.pid}.partial`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
if (process.argv.includes('--verbose')) {
  console.log(`built ${relative(ROOT, OUT_FILE)} in ${Date.now() - started} ms`);
}
