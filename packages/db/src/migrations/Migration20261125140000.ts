import { Migration } from '@mikro-orm/migrations';
import { Migration20261125120000 } from './Migration20261125120000';
import { insertsCountedByTheStatement } from './pipeline-counts-sql';

const INSERT_BRANCH = "if tg_op = 'INSERT' then";

/**
 * A build's create counts its build and jobs in its own statement (build.repository.ts `create`): one
 * update of the counter row, which also answers the counts the create shows, instead of the two insert
 * triggers each updating it again and a second statement reading it (measured: ~250 µs of PostgreSQL's
 * time per create, a sixth of it). The counts functions of Migration20261125120000, to the letter, with
 * one step first in their insert branch: when the statement says it counted its inserts, the trigger
 * resets that and returns. Each trigger resets only its own setting, whichever of the two fires first;
 * a statement that fails takes its settings back with it. Every other insert is counted as before.
 */
export class Migration20261125140000 extends Migration {
  override name = 'Migration20261125140000';

  override up(): void {
    for (const query of this.countsFunctions()) {
      const table = query.includes('pipeline_counts_builds_changed()') ? 'builds' : 'jobs';
      if (query.split(INSERT_BRANCH).length !== 2)
        throw new Error(`one insert branch expected in ${table}'s`);
      this.addSql(query.replace(INSERT_BRANCH, `${INSERT_BRANCH}${insertsCountedByTheStatement(table)}`));
    }
  }

  override down(): void {
    for (const query of this.countsFunctions()) this.addSql(query);
  }

  /** The two counts functions as Migration20261125120000 creates them. */
  private countsFunctions(): string[] {
    const previous = new Migration20261125120000(this.driver, this.config);
    previous.up();
    const functions = previous
      .getQueries()
      .filter(
        (query): query is string =>
          typeof query === 'string' &&
          /^create or replace function pipeline_counts_(builds|jobs)_changed\(\)/.test(query),
      );
    if (functions.length !== 2) throw new Error('the two counts functions expected');
    return functions;
  }
}
