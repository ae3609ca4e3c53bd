import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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

describe("the superuser's password", () => {
  it('replaces the former fixed password of an older data directory with a random one, kept 0600', async () => {
    const olderDir = mkdtempSync(join(tmpdir(), 'ci-embedded-older-'));
    const olderPort = port + 2;
    try {
      // A data directory as the launcher made it before: superuser postgres/postgres, no password file.
      const EmbeddedPostgres = await loadEmbeddedPostgres();
      const older = new EmbeddedPostgres({
        databaseDir: join(olderDir, 'pg'),
        port: olderPort,
        user: 'postgres',
        password: 'postgres',
        persistent: true,
        createPostgresUser: process.getuid?.() === 0,
        onLog: () => {},
        onError: () => {},
      });
      if (process.getuid?.() === 0) chmodSync(olderDir, 0o755);
      await older.initialise();

      const started = await startEmbeddedPostgres({ dataDir: olderDir, port: olderPort, database: 'app' });
      try {
        const password = readFileSync(join(olderDir, 'postgres-password'), 'utf8').trim();
        expect(statSync(join(olderDir, 'postgres-password')).mode & 0o777).toBe(0o600);
        expect(decodeURIComponent(new URL(started.url).password)).toBe(password);
        expect(password).not.toBe('postgres');
        await expect(
          query(`postgres://postgres:postgres@127.0.0.1:${olderPort}/app`, 'select 1'),
        ).rejects.toMatchObject({ code: '28P01' });
        expect(await query(started.url, 'select 1 as one')).toEqual([{ one: 1 }]);
      } finally {
        await started.stop();
      }
    } finally {
      rmSync(olderDir, { recursive: true, force: true });
    }
  });
});
