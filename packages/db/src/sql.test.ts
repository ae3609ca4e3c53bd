import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createSql, isForeignKeyViolation, isUniqueViolation, likeLiteral } from './sql';

/** A pool that records what each statement asked pg for, and answers with these rows. */
function poolAnswering(rows: unknown[], fields: Array<{ name: string }> = []) {
  const asked: unknown[] = [];
  const pool = {
    query: async (config: unknown, values?: unknown[]) => {
      asked.push(values === undefined ? config : { text: config, values });
      return { rows, fields };
    },
  } as unknown as pg.Pool;
  return { sql: createSql(pool), asked };
}

describe('statements', () => {
  it("answer pg's rows", async () => {
    const { sql } = poolAnswering([{ id: 'a' }]);
    expect(await sql.query('select 1', [1])).toEqual([{ id: 'a' }]);
  });

  it('prepared: rows fetched as arrays, read by column name as pg names them', async () => {
    const fields = [{ name: 'id' }, { name: 'values' }, { name: 'id' }];
    const { sql, asked } = poolAnswering(
      [
        ['a', 1, 'b'],
        [null, 2, 'c'],
      ],
      fields,
    );
    const rows = await sql.prepared<{ id: string; values: number }>('select $1::int as id', [1]);
    expect((asked[0] as { rowMode: string }).rowMode).toBe('array');
    // A repeated name is its last column, as in pg's object rows; no column name hides the values.
    expect(rows.map((row) => [row.id, row.values])).toEqual([
      ['b', 1],
      ['c', 2],
    ]);
    expect(Object.keys(Object.getPrototypeOf(rows[0]))).toEqual(['id', 'values']);
  });

  it('prepared: one stable name per text, as pg wants for named statements', async () => {
    const { sql, asked } = poolAnswering([]);
    await sql.prepared('select $1::int', [1]);
    await sql.prepared('select $1::int', [2]);
    await sql.prepared('select $1::text', ['x']);
    const [first, second, third] = asked as Array<{ name: string; text: string; values: unknown[] }>;
    expect(first?.name).toMatch(/^ci_/);
    expect(second?.name).toBe(first?.name);
    expect(third?.name).not.toBe(first?.name);
    expect(second?.values).toEqual([2]);
  });

  it('plain: text and values, no name', async () => {
    const { sql, asked } = poolAnswering([]);
    await sql.query('select $1::int', [1]);
    expect(asked).toEqual([{ text: 'select $1::int', values: [1] }]);
  });
});

describe('likeLiteral', () => {
  it.each([
    ['main', 'main'],
    ['100%', '100\\%'],
    ['a_b', 'a\\_b'],
    ['c:\\dir', 'c:\\\\dir'],
    ['feature/*', 'feature/*'],
  ])('escapes the wildcards of %s', (text, pattern) => {
    expect(likeLiteral(text)).toBe(pattern);
  });
});

describe('constraint violations', () => {
  const unique = { code: '23505', constraint: 'teams_organization_id_slug_unique' };
  const foreignKey = { code: '23503', constraint: 'team_members_team_id_foreign' };

  it.each<[string, () => boolean, boolean]>([
    ['any unique violation', () => isUniqueViolation(unique), true],
    ['a unique violation of that constraint', () => isUniqueViolation(unique, unique.constraint), true],
    ['a unique violation of another constraint', () => isUniqueViolation(unique, 'other'), false],
    ['a foreign-key violation as a unique one', () => isUniqueViolation(foreignKey), false],
    [
      'a foreign-key violation of that constraint',
      () => isForeignKeyViolation(foreignKey, foreignKey.constraint),
      true,
    ],
    [
      'a foreign-key violation of another constraint',
      () => isForeignKeyViolation(foreignKey, 'other'),
      false,
    ],
    ['something not from PostgreSQL', () => isUniqueViolation(new Error('boom')), false],
    ['null', () => isForeignKeyViolation(null, foreignKey.constraint), false],
  ])('recognises %s', (_case, check, expected) => {
    expect(check()).toBe(expected);
  });
});
