import { Migration } from '@mikro-orm/migrations';

/**
 * The trigger lookups of the build and job statements, as functions: PostgreSQL sets up a sub-select's
 * plan on every execution of its statement, even where no row needs it, and calls a function only where
 * one does (ADR 0029). SQL-standard bodies, so PostgreSQL records the tables they read.
 */
export class Migration20261128060000 extends Migration {
  override name = 'Migration20261128060000';

  override up(): void {
    // The trigger job that made a build, with that job's build and pipeline.
    this.addSql(`create function build_triggered_from(build_id uuid) returns json language sql stable
      return (
        select json_build_object('job_id', tj.id, 'build_id', tb.id, 'build_number', tb.number,
          'pipeline_slug', tp.slug)
        from jobs tj join builds tb on tb.id = tj.build_id join pipelines tp on tp.id = tb.pipeline_id
        where tj.triggered_build_id = build_triggered_from.build_id limit 1
      );`);
    // The build a trigger job made, with its pipeline.
    this.addSql(`create function job_triggered_build(triggered_build_id uuid) returns json language sql stable
      return (
        select json_build_object('id', tb.id, 'number', tb.number, 'pipeline_slug', tp.slug)
        from builds tb join pipelines tp on tp.id = tb.pipeline_id
        where tb.id = job_triggered_build.triggered_build_id
      );`);
  }

  override down(): void {
    this.addSql('drop function job_triggered_build(uuid);');
    this.addSql('drop function build_triggered_from(uuid);');
  }
}
