import { Migration } from '@mikro-orm/migrations';

/**
 * Where agents live and where jobs go (issue 28): an agent registered with a cluster's token belongs to
 * that cluster and one of its queues; a command job of a pipeline in a cluster keeps the cluster and the
 * queue decided when it was made (no foreign keys: history, and a deleted queue's jobs wait for nobody).
 * Existing agents and jobs get nulls: unclustered, dispatched as before (an unclustered agent takes the
 * unclustered jobs its tags allow), so existing data and `pnpm start --with-agent` keep working.
 */
export class Migration20261127100000 extends Migration {
  override name = 'Migration20261127100000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "agents" add "cluster_id" uuid null, add "cluster_queue_id" uuid null;`);
    this.addSql(
      `alter table "agents" add constraint "agents_cluster_id_foreign" foreign key ("cluster_id") references "clusters" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "agents" add constraint "agents_cluster_queue_id_foreign" foreign key ("cluster_queue_id") references "cluster_queues" ("id") on delete set null;`,
    );
    this.addSql(`create index "agents_cluster_id_index" on "agents" ("cluster_id");`);
    this.addSql(`create index "agents_cluster_queue_id_index" on "agents" ("cluster_queue_id");`);

    this.addSql(`alter table "jobs" add "cluster_id" uuid null, add "cluster_queue_id" uuid null;`);
    this.addSql(
      `create index "jobs_cluster_queue_idx" on "jobs" ("cluster_queue_id") where "cluster_queue_id" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "jobs_cluster_queue_idx";`);
    this.addSql(`alter table "jobs" drop column "cluster_id", drop column "cluster_queue_id";`);
    this.addSql(`alter table "agents" drop constraint "agents_cluster_id_foreign";`);
    this.addSql(`alter table "agents" drop constraint "agents_cluster_queue_id_foreign";`);
    this.addSql(`drop index "agents_cluster_id_index";`);
    this.addSql(`drop index "agents_cluster_queue_id_index";`);
    this.addSql(`alter table "agents" drop column "cluster_id", drop column "cluster_queue_id";`);
  }
}
