import type { RegistryRepository } from '@ci/application';
import type { Ecosystem, Registry } from '@ci/domain';
import { toDate } from '../rows';
import { isUniqueViolation, type Sql } from '../sql';

type Row = Record<string, unknown>;

export const REGISTRY_COLUMNS =
  'id, organization_id, slug, name, ecosystem, description, emoji, color, public, oidc_policy, created_at';

/** The constraint that keeps slugs unique per organization (the entity's `uniques`). */
const SLUG_CONSTRAINT = 'registries_organization_id_slug_unique';

export function registryFromRow(row: Row): Registry {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    slug: row.slug as string,
    name: row.name as string,
    ecosystem: row.ecosystem as Ecosystem,
    description: (row.description as string | null) ?? null,
    emoji: (row.emoji as string | null) ?? null,
    color: (row.color as string | null) ?? null,
    public: row.public as boolean,
    oidcPolicy: (row.oidc_policy as string | null) ?? null,
    createdAt: toDate(row.created_at),
  };
}

export function registryRepository(sql: Sql): RegistryRepository {
  return {
    async findBySlug(organizationId, slug) {
      const [row] = await sql.query(
        `select ${REGISTRY_COLUMNS} from registries where organization_id = $1 and slug = $2`,
        [organizationId, slug],
      );
      return row ? registryFromRow(row) : null;
    },
    async list({ organizationId, offset, limit }) {
      const rows = await sql.query(
        `select ${REGISTRY_COLUMNS} from registries where organization_id = $1
         order by created_at, id limit $2 offset $3`,
        [organizationId, limit, offset],
      );
      return rows.map(registryFromRow);
    },
    async count(organizationId) {
      const [row] = await sql.query<{ count: number }>(
        'select count(*)::int as count from registries where organization_id = $1',
        [organizationId],
      );
      return row?.count ?? 0;
    },
    async insert(registry) {
      try {
        await sql.query(
          `insert into registries (${REGISTRY_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            registry.id,
            registry.organizationId,
            registry.slug,
            registry.name,
            registry.ecosystem,
            registry.description,
            registry.emoji,
            registry.color,
            registry.public,
            registry.oidcPolicy,
            registry.createdAt,
          ],
        );
        return 'inserted';
      } catch (error) {
        if (isUniqueViolation(error, SLUG_CONSTRAINT)) return 'slug_taken';
        throw error;
      }
    },
    async update({ id, changes }) {
      // Each column changes only when the update names it, so concurrent updates of other fields stay.
      try {
        const [row] = await sql.query(
          `update registries set
             name = case when $2 then $3 else name end,
             slug = case when $2 then $4 else slug end,
             description = case when $5 then $6 else description end
           where id = $1 returning ${REGISTRY_COLUMNS}`,
          [
            id,
            changes.name !== undefined,
            changes.name ?? null,
            changes.slug ?? null,
            changes.description !== undefined,
            changes.description ?? null,
          ],
        );
        return row ? registryFromRow(row) : 'not_found';
      } catch (error) {
        if (isUniqueViolation(error, SLUG_CONSTRAINT)) return 'slug_taken';
        throw error;
      }
    },
    async delete(organizationId, slug) {
      const rows = await sql.query(
        'delete from registries where organization_id = $1 and slug = $2 returning id',
        [organizationId, slug],
      );
      return rows.length > 0;
    },
  };
}
