/**
 * Writes the REST API's OpenAPI document to docs/api/openapi.json, or with `--check` fails when the
 * committed file differs from what the router generates (CI's drift check).
 *
 *   pnpm docs:api     write the document
 *   pnpm check:api    compare it, change nothing
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { appRouter, openApiDocument } from '@ci/trpc';

/** Fixed, so the committed document does not depend on anyone's configuration. */
const BASE_URL = 'http://localhost:3000/v2';
const TARGET = resolve(import.meta.dirname, '../docs/api/openapi.json');

const generated = `${JSON.stringify(openApiDocument(appRouter, { baseUrl: BASE_URL }), null, 2)}\n`;
const target = relative(process.cwd(), TARGET);

if (process.argv.includes('--check')) {
  let committed: string | null = null;
  try {
    committed = readFileSync(TARGET, 'utf8');
  } catch {
    // missing: reported below like any other difference
  }
  if (committed !== generated) {
    console.error(
      `${target} ${committed === null ? 'is missing' : 'is out of date with the router'}.\n` +
        'Run `pnpm docs:api` and commit the result.',
    );
    process.exit(1);
  }
  console.log(`${target} matches the router.`);
} else {
  mkdirSync(dirname(TARGET), { recursive: true });
  writeFileSync(TARGET, generated);
  console.log(`Wrote ${target}.`);
}
