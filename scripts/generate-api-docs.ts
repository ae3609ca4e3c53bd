/**
 * Writes the API documents, or with `--check` fails when a committed one differs from what the code
 * generates (CI's drift check):
 *
 * - docs/api/openapi.json: the REST API's OpenAPI document, from the tRPC router
 * - docs/api/schema.graphql: the GraphQL schema, printed from the Pothos builder
 *
 * Either way the OpenAPI document is first checked by Redocly's linter and Swagger Parser
 * (openapi-validation.ts): an error stops both commands, warnings are listed.
 *
 *   pnpm docs:api     write the documents
 *   pnpm check:api    compare them, change nothing
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { printedSchema } from '@ci/graphql';
import { appRouter, openApiDocument } from '@ci/trpc';
import { openApiProblems } from './openapi-validation';

/** Fixed, so the committed document does not depend on anyone's configuration. */
const BASE_URL = 'http://localhost:3000/v2';

const openApi = openApiDocument(appRouter, { baseUrl: BASE_URL });
const { errors, warnings } = await openApiProblems(openApi);
for (const warning of warnings) console.warn(`warning ${warning}`);
if (errors.length) {
  for (const error of errors) console.error(`error ${error}`);
  console.error(
    `The OpenAPI document has ${errors.length} error(s): fix its generation (packages/trpc/src/openapi.ts).`,
  );
  process.exit(1);
}
console.log(`The OpenAPI document passes Redocly's linter and Swagger Parser (${warnings.length} warnings).`);

const documents = [
  {
    target: resolve(import.meta.dirname, '../docs/api/openapi.json'),
    source: 'the router',
    generated: `${JSON.stringify(openApi, null, 2)}\n`,
  },
  {
    target: resolve(import.meta.dirname, '../docs/api/schema.graphql'),
    source: 'the GraphQL schema',
    generated: printedSchema(),
  },
];

if (process.argv.includes('--check')) {
  let drifted = false;
  for (const { target, source, generated } of documents) {
    const name = relative(process.cwd(), target);
    let committed: string | null = null;
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      // missing: reported below like any other difference
    }
    if (committed === generated) {
      console.log(`${name} matches ${source}.`);
      continue;
    }
    drifted = true;
    console.error(`${name} ${committed === null ? 'is missing' : `is out of date with ${source}`}.`);
  }
  if (drifted) {
    console.error('Run `pnpm docs:api` and commit the result.');
    process.exit(1);
  }
} else {
  for (const { target, generated } of documents) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, generated);
    console.log(`Wrote ${relative(process.cwd(), target)}.`);
  }
}
