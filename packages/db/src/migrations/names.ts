/**
 * The committed migrations' names, in order, without their classes (which import MikroORM): the server
 * compares them with `schema_migrations` at start and loads MikroORM only when one is pending.
 * names.test.ts checks them equal to index.ts's `migrationsList`; `migration:create` appends to both.
 */
export const migrationNames: readonly string[] = [
  'Migration20261121035716',
  'Migration20261121120100',
  'Migration20261121120200',
  'Migration20261121120300',
  'Migration20261121120400',
  'Migration20261121130000',
  'Migration20261121140000',
  'Migration20261121150000',
  'Migration20261121160000',
  'Migration20261121170000',
  'Migration20261125090000',
  'Migration20261125120000',
  'Migration20261125130000',
  'Migration20261125140000',
  'Migration20261125150000',
  'Migration20261125160000',
  'Migration20261125170000',
  'Migration20261126120000',
];
