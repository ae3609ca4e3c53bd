import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createSql, isForeignKeyViolation, isUniqueViolation, likeLiteral } from './sql';

/**
 * A client answering every statement with these columns and rows of values, as pg's array mode does: a
 * query object it was handed (a prepared statement's, pg-described-statements.ts) through its callback.
 */
function poolAnswering(names: string[], rows: unknown[][]) {
  const asked: Array<{ rowMode?: string; name?: string }> = [];
  const pool = {
    query: async (config: {
      rowMode?: string;
      _rowMode?: string;
      name?: string;
      callback?: (error: null, result: unknown) => void;
    }) => {
      asked.push({ rowMode: config.rowMode ?? config._rowMode, name: config.name });
      const result = { fields: names.map((name) => ({ name })), rows };
      config.callback?.(null, result);
      return result;
    },
  } as unknown as pg.Pool;
  return { sql: createSql(pool), asked };
}

describe('rows', () => {
  it('are plain objects holding every column by name, in order, from the values pg parsed', async () => {
    const when = new Date(0);
    const { sql, asked } = poolAnswering(
      ['id', 'created_at', 'tags', 'note'],
      [
        ['a', when, ['x'], null],
        ['b', null, [], 'hi'],
      ],
    );
    for (const read of [sql.query, sql.prepared]) {
      const rows = await read('select …', []);
      expect(rows).toEqual([
        { id: 'a', created_at: when, tags: ['x'], note: null },
        { id: 'b', created_at: null, tags: [], note: 'hi' },
      ]);
      expect(Object.keys(rows[0]!)).toEqual(['id', 'created_at', 'tags', 'note']);
      expect({ ...rows[1] }).toEqual({ id: 'b', created_at: null, tags: [], note: 'hi' });
    }
    expect(asked.map((config) => config.rowMode)).toEqual(['array', 'array']);
    expect(asked[1]!.name).toMatch(/^ci_/);
  });

  it('keep the last value of a repeated column name, as pg does', async () => {
    const { sql } = poolAnswering(['id', 'name', 'id'], [[1, 'n', 2]]);
    expect(await sql.query('select …')).toEqual([{ id: 2, name: 'n' }]);
  });

  it('take any column name literally, quotes and spaces included', async () => {
    const { sql } = poolAnswering(['parentId', 'a "b"', "c'd", 'e\\f'], [[1, 2, 3, 4]]);
    expect(await sql.query('select …')).toEqual([{ parentId: 1, 'a "b"': 2, "c'd": 3, 'e\\f': 4 }]);
  });

  it('are none for no rows', async () => {
    const { sql } = poolAnswering(['id'], []);
    expect(await sql.query('select …')).toEqual([]);
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
