import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

const dataDir = mkdtempSync(join(tmpdir(), 'ci-embedded-'));
const port = 54000 + Math.floor(Math.random() * 900);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('loading the package', () => {
  it("leaves no hook on the process's natural end: a failing exit code is not turned into 0, no crash at exit", async () => {
    for (const event of ['beforeExit', 'exit'] as unknown as 'exit'[]) {
      const before = process.listeners(event);
      await loadEmbeddedPostgres();
      expect(process.listeners(event)).toEqual(before);
    }
    // async-exit-hook's listeners are its `events[event]` functions, which call its `exit(…)`: none may
    // be left on a natural end, whoever loaded the package first.
    for (const event of ['beforeExit', 'exit'] as unknown as 'exit'[]) {
      expect(
        process
          .listeners(event)
          .map(String)
          .filter((source) => source.includes('eventFilters')),
      ).toEqual([]);
    }
  });
});

async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  it('initialises on first start, is reused by a second process, and keeps data across restarts', async () => {
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'app' });
    expect(first.owned).toBe(true);
    await query(first.url, 'create table kept (value text); insert into kept values ($$still here$$)');

    // A second starter (the CLI while the server runs) attaches instead of starting another server.
    const attached = await startEmbeddedPostgres({ dataDir, port: port + 1, database: 'app' });
    expect(attached.owned).toBe(false);
    expect(attached.url).toBe(first.url);
    await attached.stop();
    expect(await query(first.url, 'select value from kept')).toEqual([{ value: 'still here' }]);

    await first.stop();
    const again = await startEmbeddedPostgres({ dataDir, port, database: 'app' });
    try {
      expect(again.owned).toBe(true);
      expect(await query(again.url, 'select value from kept')).toEqual([{ value: 'still here' }]);
    } finally {
      await again.stop();
    }
  });
});
