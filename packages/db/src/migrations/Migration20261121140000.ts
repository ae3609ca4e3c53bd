import { Migration } from '@mikro-orm/migrations';

/**
 * Gives each organization membership and team membership an id of its own, the uuid of its GraphQL
 * `OrganizationMember` / `TeamMember` id. Existing memberships get a random one (new ones get the
 * application's time-ordered id).
 */
export class Migration20261121140000 extends Migration {
  override name = 'Migration20261121140000';

  override up(): void {
    for (const table of ['organization_members', 'team_members']) {
      this.addSql(`alter table "${table}" add "id" uuid null;`);
      this.addSql(`update "${table}" set "id" = gen_random_uuid() where "id" is null;`);
      this.addSql(`alter table "${table}" alter column "id" set not null;`);
      this.addSql(`alter table "${table}" add constraint "${table}_id_unique" unique ("id");`);
    }
  }

  override down(): void {
    for (const table of ['organization_members', 'team_members']) {
      this.addSql(`alter table "${table}" drop constraint "${table}_id_unique";`);
      this.addSql(`alter table "${table}" drop column "id";`);
    }
  }
}
