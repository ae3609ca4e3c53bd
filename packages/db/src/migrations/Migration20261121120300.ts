import { Migration } from '@mikro-orm/migrations';

export class Migration20261121120300 extends Migration {
  override name = 'Migration20261121120300';

  override up(): void {
    // UNLOGGED by hand (the ORM does not model it): rate-limit counters need no WAL, see the entity.
    this.addSql(
      'create unlogged table "rate_limit_windows" ("window_start" timestamptz(3) not null, "subject_kind" varchar(16) not null, "subject_id" uuid not null, "requests" int not null, primary key ("window_start", "subject_kind", "subject_id"));',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "rate_limit_windows" cascade;');
  }
}
