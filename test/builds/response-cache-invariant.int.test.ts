import { newId } from '@ci/application';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../support/world';

/*
 * The response cache's and ETags' one invariant (ADR 0016): two answers about a pipeline's builds with the
 * same tag are the same bytes. The tag is made from the content revision, so every column of every table
 * the answers read must move it when its change shows. This test finds the tables from the plans of the
 * statements the answers really run, changes each of their columns in turn by plain SQL (as another
 * process or an operator would), and fails for any change that shows in an answer under an unchanged
 * tag: a new table or column that escapes the revision fails here, not in production.
 */

let world: World;
const LIST = '/v2/organizations/acme/pipelines/web/builds';
let BUILD: string;
const sql = <Row = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  world.server.database.sql.query<Row>(text, params);

/** Tables the answers read that decide who may read them, not what they show: the tag's other parts. */
const ACCESS_ONLY = new Set(['access_tokens', 'team_members', 'team_pipelines', 'catalog_revision']);

/**
 * Columns no generic change can move without breaking the row's identity or its constraints; each is
 * named so that a new one is a decision, not an accident.
 */
const UNCHANGEABLE = new Set([
  // Where the row belongs: not null references.
  'agents.organization_id',
  'builds.organization_id',
  'builds.pipeline_id',
  'jobs.build_id',
  'pipelines.organization_id',
  'organization_members.id',
  // Unique per pipeline, and numbered in sequence: one more is the next build's.
  'builds.number',
]);

beforeAll(async () => {
  world = await startWorld({ RESPONSE_CACHE: 'off' });
  const first = await world.createBuild('web', { message: 'first' });
  const rebuilt = await world.call('PUT', `${LIST}/${first.number}/rebuild`);
  expect(rebuilt.status).toBe(200);
  BUILD = `${LIST}/${rebuilt.body.number}`;
  // An agent on one of its jobs, so that agents are read and shown.
  const agentId = newId();
  await sql(
    `insert into agents (id, organization_id, name, connection_state, tags, created_at)
     select $1, id, 'agent-1', 'connected', '{}', now() from organizations where slug = 'acme'`,
    [agentId],
  );
  await sql("update jobs set agent_id = $1 where build_id = $2 and type = 'script'", [
    agentId,
    rebuilt.body.id,
  ]);
});
afterAll(async () => {
  await world?.close();
});

interface Answer {
  status: number;
  text: string;
  tag: string | null;
}

async function answers(): Promise<Answer[]> {
  const read = async (path: string) => {
    const response = await world.call('GET', path);
    return { status: response.status, text: response.text, tag: response.headers.get('etag') };
  };
  return [await read(LIST), await read(`${LIST}?include_retried_jobs=true`), await read(BUILD)];
}

/** Every table a plan reads (`Relation Name`), recursively. */
function relationsOf(plan: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(plan)) for (const item of plan) relationsOf(item, into);
  else if (plan && typeof plan === 'object') {
    for (const [key, value] of Object.entries(plan)) {
      if (key === 'Relation Name' && typeof value === 'string') into.add(value);
      else relationsOf(value, into);
    }
  }
  return into;
}

/**
 * The tables the answers read, from the generic plans of the statements they ran, and those of the SQL
 * functions they may call (whose plans are not in a statement's): PostgreSQL records what each
 * SQL-standard body reads (Migration20261128060000).
 */
async function tablesRead(): Promise<string[]> {
  const { sql: statements } = await world.countStatements(answers);
  const tables = new Set<string>();
  for (const statement of statements) {
    const [row] = await sql(`explain (generic_plan, format json) ${statement}`);
    relationsOf(Object.values(row ?? {}), tables);
  }
  const ofFunctions = await sql<{ name: string }>(
    `select distinct c.relname as name from pg_depend d
     join pg_proc p on p.oid = d.objid join pg_class c on c.oid = d.refobjid
     where d.classid = 'pg_proc'::regclass and d.refclassid = 'pg_class'::regclass and c.relkind = 'r'
       and p.pronamespace = current_schema()::regnamespace and p.prosqlbody is not null`,
  );
  // The trigger lookups' functions were found: a query that finds none would hide their tables.
  expect(ofFunctions.map(({ name }) => name)).toEqual(
    expect.arrayContaining(['builds', 'jobs', 'pipelines']),
  );
  for (const { name } of ofFunctions) tables.add(name);
  return [...tables].filter((table) => !ACCESS_ONLY.has(table)).sort();
}

interface Column {
  name: string;
  type: string;
  nullable: boolean;
}

async function columnsOf(table: string) {
  const columns = await sql<{ name: string; type: string; nullable: string }>(
    `select column_name as name, data_type as type, is_nullable as nullable from information_schema.columns
     where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
    [table],
  );
  const keys = await sql<{ name: string }>(
    `select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where i.indrelid = $1::regclass and i.indisprimary`,
    [table],
  );
  const key = keys.map((row) => row.name);
  return {
    key,
    columns: columns
      .filter((column) => !key.includes(column.name))
      .map((column): Column => ({ ...column, nullable: column.nullable === 'YES' })),
  };
}

/** A change to every row's value of the column, by its type; null for a type this test cannot change. */
function changed(column: Column): string | null {
  const c = `"${column.name}"`;
  switch (column.type) {
    case 'text':
    case 'character varying':
      return `coalesce(${c}, '') || 'x'`;
    case 'integer':
    case 'bigint':
    case 'smallint':
    case 'numeric':
      return `coalesce(${c}, 0) + 1`;
    case 'boolean':
      return `not coalesce(${c}, false)`;
    case 'timestamp with time zone':
    case 'timestamp without time zone':
      return `coalesce(${c}, now()) + interval '1 second'`;
    case 'jsonb':
      return `case when jsonb_typeof(${c}) = 'array' then ${c} || '"x"'::jsonb
        else coalesce(${c}, '{}'::jsonb) || '{"x": "y"}'::jsonb end`;
    case 'ARRAY':
      return `coalesce(${c}, '{}') || array['x']`;
    case 'uuid':
      // A reference that may be cleared is; one that may not is the row's place (UNCHANGEABLE).
      return column.nullable ? 'null' : 'unchangeable';
    default:
      return null;
  }
}

describe('the content revision behind the response cache and ETags', () => {
  it('moves with every change of a table or column the answers read that shows in them', async () => {
    const tables = await tablesRead();
    // The plans were read: the answers' own tables are among them.
    expect(tables).toEqual(
      expect.arrayContaining([
        'agents',
        'builds',
        'jobs',
        'organizations',
        'pipeline_counts',
        'pipelines',
        'users',
      ]),
    );
    const escaped: string[] = [];
    const unchangeable: string[] = [];
    const shown: string[] = [];
    for (const table of tables) {
      const { key, columns } = await columnsOf(table);
      expect(key.length, `${table} has no primary key to restore its rows by`).toBeGreaterThan(0);
      for (const column of columns) {
        const name = `${table}.${column.name}`;
        const change = changed(column);
        expect(change, `teach this test to change a column of type ${column.type} (${name})`).not.toBeNull();
        if (change === 'unchangeable') {
          unchangeable.push(name);
          continue;
        }
        const before = await answers();
        await sql('drop table if exists invariant_saved');
        await sql(
          `create table invariant_saved as select ${key.join(', ')}, "${column.name}" as v from ${table}`,
        );
        try {
          await sql(`update ${table} set "${column.name}" = ${change}`);
        } catch {
          unchangeable.push(name);
          continue;
        }
        const after = await answers();
        if (after.some((answer, i) => answer.text !== before[i]?.text)) shown.push(name);
        after.forEach((answer, i) => {
          const was = before[i] as Answer;
          if (answer.text !== was.text && answer.tag !== null && answer.tag === was.tag) escaped.push(name);
        });
        const match = key.map((part) => `${table}.${part} = s.${part}`).join(' and ');
        await sql(`update ${table} set "${column.name}" = s.v from invariant_saved s where ${match}`);
      }
    }
    await sql('drop table if exists invariant_saved');
    expect(escaped, 'changes that showed under an unchanged ETag').toEqual([]);
    const listed = [...UNCHANGEABLE].filter((name) => tables.includes(name.split('.')[0] as string));
    expect(unchangeable.sort()).toEqual(listed.sort());
    // The test changed enough to mean something: most columns show in the answers.
    expect(shown.length, JSON.stringify(shown)).toBeGreaterThan(60);
  });

  // The generic test above changes every pipeline at once, the list's own included: what another
  // pipeline's row alone shows here (the slug of a build's `triggered_from`) needs a change of its own.
  it("moves when the pipeline of a build that triggered one of the list's is renamed", async () => {
    const parent = await world.createBuild('api');
    const child = await world.createBuild('web');
    await sql("update builds set source = 'trigger_job' where id = $1", [child.id]);
    await sql('update jobs set triggered_build_id = $1 where id = $2', [child.id, parent.jobs[0].id]);
    const before = await world.call('GET', LIST);
    expect(before.text).toContain('"build_pipeline_slug":"api"');
    await sql("update pipelines set slug = 'api-renamed' where slug = 'api'");
    try {
      const after = await world.call('GET', LIST);
      expect(after.text).toContain('"build_pipeline_slug":"api-renamed"');
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    } finally {
      await sql("update pipelines set slug = 'api' where slug = 'api-renamed'");
    }
  });
});
