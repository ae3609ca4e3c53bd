import type { BuildMetaDataRepository } from '@ci/application';
import type { Sql } from '../sql';

export function buildMetaDataRepository(sql: Sql): BuildMetaDataRepository {
  return {
    async set({ buildId, key, value, maxKeys }) {
      // One statement: a concurrent set waits for the row and merges into what that one wrote.
      const rows = await sql.query(
        `update builds set meta_data = meta_data || jsonb_build_object($2::text, $3::text)
         where id = $1 and (meta_data ? $2 or (select count(*) from jsonb_object_keys(meta_data)) < $4)
         returning id`,
        [buildId, key, value, maxKeys],
      );
      return rows.length > 0;
    },
    async read(buildId) {
      const [row] = await sql.query('select meta_data from builds where id = $1', [buildId]);
      return row ? (row.meta_data as Record<string, string>) : null;
    },
  };
}
