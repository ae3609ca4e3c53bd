import { type BuildFilter, type BuildParent, type BuildScope, newId } from '@ci/application';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../../test/support/database';
import { type Database, openDatabase } from '../database';

/*
 * Batched build lists (GraphQL's `Pipeline.builds` over several pipelines): which of their statements
 * are prepared. A prepared statement is planned once per connection instead of once per request; only
 * filters whose best plan is the same for every value may keep a generic plan.
 */

let db: TestDatabase;
/** One connection, so that its prepared statements can be read back. */
let one: Database;

beforeAll(async () => {
  db = await freshDatabase();
  one = await openDatabase({ url: db.url, dataDir: '', embeddedPort: 0, poolMax: 1 });
});
afterAll(async () => {
  await one?.close();
  await db?.close();
});

const pipelineId = newId();
const scope: BuildScope = {
  kind: 'organizations',
  adminOrganizationIds: [],
  visiblePipelineIds: [pipelineId],
};

/** Whether reading the windows left a prepared statement on the connection that was not there before. */
async function prepares(parent: BuildParent, filter: BuildFilter): Promise<boolean> {
  const statements = async () =>
    (await one.sql.query<{ statement: string }>('select statement from pg_prepared_statements')).length;
  const before = await statements();
  await one.repos.builds.listOfParents({
    scope,
    filter,
    parent,
    windows: [{ parentId: pipelineId, offset: 0, limit: 3 }],
  });
  return (await statements()) > before;
}

describe("batched build lists' statements", () => {
  it.each<[string, BuildFilter]>([
    ['no filter', {}],
    ['one branch', { branches: ['main'] }],
    ['one state', { states: ['passed'] }],
    ['one branch and one state', { branches: ['release'], states: ['failed'] }],
  ])("read pipelines' windows with a prepared statement for %s", async (_name, filter) => {
    expect(await prepares('pipeline', filter)).toBe(true);
  });

  it.each<[string, BuildFilter]>([
    ['a wildcard branch', { branches: ['feature/*'] }],
    ['two states', { states: ['passed', 'failed'] }],
    ['a commit', { commits: ['a'.repeat(40)] }],
    ["the pipeline's default branch", { defaultBranch: true }],
  ])("plan pipelines' windows for each request for %s", async (_name, filter) => {
    expect(await prepares('pipeline', filter)).toBe(false);
  });

  it("plans creators' windows for each request (no ordered index leads with the creator)", async () => {
    expect(await prepares('creator', { branches: ['main'] })).toBe(false);
  });
});
