import { describe, expect, it } from 'vitest';
import { isForeignKeyViolation, isUniqueViolation, likeLiteral } from './sql';

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

  it.each([
    ['any unique violation', isUniqueViolation(unique), true],
    ['a unique violation of that constraint', isUniqueViolation(unique, unique.constraint), true],
    ['a unique violation of another constraint', isUniqueViolation(unique, 'other'), false],
    ['a foreign-key violation as a unique one', isUniqueViolation(foreignKey), false],
    [
      'a foreign-key violation of that constraint',
      isForeignKeyViolation(foreignKey, foreignKey.constraint),
      true,
    ],
    ['a foreign-key violation of another constraint', isForeignKeyViolation(foreignKey, 'other'), false],
    ['something not from PostgreSQL', isUniqueViolation(new Error('boom')), false],
    ['null', isForeignKeyViolation(null, foreignKey.constraint), false],
  ])('recognises %s: %s', (_case, answer, expected) => {
    expect(answer).toBe(expected);
  });
});
