import type { BuildMetaDataRepository } from '@ci/application';
import type { Sql } from '../sql';

/**
 * Merges keys into a build's meta-data in one statement (on `sql`, which may be a transaction's), so a
 * concurrent merge waits for the row and merges into what that one wrote; false (nothing written) when
 * some key is new and the build would hold more than `maxKeys`.
 */
export async function mergeBuildMetaData(
  sql: Sql,
  input: { buildId: string; values: Readonly<Record<string, string>>; maxKeys: number },
): Promise<boolean> {
  const rows = await sql.query(
    `update builds set meta_data = meta_data || $2::jsonb
     where id = $1 and (
       not exists (select 1 from jsonb_object_keys($2::jsonb) as given(key) where not meta_data ? given.key)
       or (select count(*) from jsonb_object_keys(meta_data || $2::jsonb)) <= $3)
     returning id`,
    [input.buildId, JSON.stringify(input.values), input.maxKeys],
  );
  return rows.length > 0;
}

export function buildMetaDataRepository(sql: Sql): BuildMetaDataRepository {
  return {
    async set({ buildId, key, value, maxKeys }) {
      return mergeBuildMetaData(sql, { buildId, values: { [key]: value }, maxKeys });
    },
    async read(buildId) {
      const [row] = await sql.query('select meta_data from builds where id = $1', [buildId]);
      return row ? (row.meta_data as Record<string, string>) : null;
    },
  };
}
