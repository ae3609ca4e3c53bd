import { describe, expect, it } from 'vitest';
import { migrationsList } from './index';
import { migrationNames } from './names';

describe('the list of migration names', () => {
  it('is the committed migrations’ names, in their order', () => {
    expect(migrationNames).toEqual(migrationsList.map((migration) => migration.name));
  });

  it('names each migration as its class does', () => {
    for (const migration of migrationsList) {
      const Migration = migration.class as unknown as new (...args: unknown[]) => { name?: string };
      expect(Migration.name).toBe(migration.name);
    }
  });
});
