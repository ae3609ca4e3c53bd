// Builds the web app (apps/web, Vite) into apps/web/dist unless the build is newer than every file it is
// made from: `pnpm start` and the tests call it, and on an unchanged tree it only compares dates (ADR 0023).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = fileURLToPath(new URL('../apps/web/', import.meta.url));
const stamp = join(web, 'dist', '.built');
/** What the bundle is made from: the app's sources, its page, its configuration and its dependencies. */
const INPUTS = ['src', 'index.html', 'vite.config.ts', 'package.json', '../../pnpm-lock.yaml'];

function newest(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export async function buildWeb({ force = false } = {}) {
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...INPUTS.map((input) => newest(join(web, input))));
  if (!force && built > sources) return false;
  // Vite is the web app's own dependency: resolved from apps/web, not from the repository's root.
  const vite = await import(pathToFileURL(createRequire(join(web, 'package.json')).resolve('vite')).href);
  await vite.build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const built = await buildWeb({ force: process.argv.includes('--force') });
  if (built) console.log('web app built into apps/web/dist');
}
