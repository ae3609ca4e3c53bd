import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121035716 } from './Migration20261121035716';
import { Migration20261121120100 } from './Migration20261121120100';
import { Migration20261121120200 } from './Migration20261121120200';
import { Migration20261121120300 } from './Migration20261121120300';
import { Migration20261121120400 } from './Migration20261121120400';
import { Migration20261121130000 } from './Migration20261121130000';
import { Migration20261121140000 } from './Migration20261121140000';
import { Migration20261121150000 } from './Migration20261121150000';
import { Migration20261121160000 } from './Migration20261121160000';
import { Migration20261121170000 } from './Migration20261121170000';
import { Migration20261125090000 } from './Migration20261125090000';
import { Migration20261125120000 } from './Migration20261125120000';
import { Migration20261125130000 } from './Migration20261125130000';
import { Migration20261125140000 } from './Migration20261125140000';
import { Migration20261125150000 } from './Migration20261125150000';
import { Migration20261125160000 } from './Migration20261125160000';
import { Migration20261125170000 } from './Migration20261125170000';
import { Migration20261126120000 } from './Migration20261126120000';
import { Migration20261127034000 } from './Migration20261127034000';

/** Every committed migration, in order. `pnpm --filter @ci/db migration:create` appends new ones. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121035716', class: Migration20261121035716 },
  { name: 'Migration20261121120100', class: Migration20261121120100 },
  { name: 'Migration20261121120200', class: Migration20261121120200 },
  { name: 'Migration20261121120300', class: Migration20261121120300 },
  { name: 'Migration20261121120400', class: Migration20261121120400 },
  { name: 'Migration20261121130000', class: Migration20261121130000 },
  { name: 'Migration20261121140000', class: Migration20261121140000 },
  { name: 'Migration20261121150000', class: Migration20261121150000 },
  { name: 'Migration20261121160000', class: Migration20261121160000 },
  { name: 'Migration20261121170000', class: Migration20261121170000 },
  { name: 'Migration20261125090000', class: Migration20261125090000 },
  { name: 'Migration20261125120000', class: Migration20261125120000 },
  { name: 'Migration20261125130000', class: Migration20261125130000 },
  { name: 'Migration20261125140000', class: Migration20261125140000 },
  { name: 'Migration20261125150000', class: Migration20261125150000 },
  { name: 'Migration20261125160000', class: Migration20261125160000 },
  { name: 'Migration20261125170000', class: Migration20261125170000 },
  { name: 'Migration20261126120000', class: Migration20261126120000 },
  { name: 'Migration20261127034000', class: Migration20261127034000 },
];
