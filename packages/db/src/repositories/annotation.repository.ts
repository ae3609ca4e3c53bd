import type { AnnotationFilter, AnnotationRepository } from '@ci/application';
import type { Annotation, AnnotationStyle } from '@ci/domain';
import { inParentWindows, parentWindows, toDate } from '../rows';
import type { Sql } from '../sql';

type Row = Record<string, unknown>;

const NO_FILTER: AnnotationFilter = { styles: null, byPriority: false };

const COLUMNS = 'id, build_id, job_id, context, style, priority, body, body_html, created_at, updated_at';

function toAnnotation(row: Row): Annotation {
  return {
    id: row.id as string,
    buildId: row.build_id as string,
    jobId: (row.job_id as string | null) ?? null,
    context: row.context as string,
    style: row.style as AnnotationStyle,
    priority: row.priority as number,
    body: row.body as string,
    bodyHtml: row.body_html as string,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function annotationRepository(sql: Sql): AnnotationRepository {
  return {
    write({ buildId, context }, change) {
      return sql.transaction(async (tx) => {
        // A context with no row yet has no row to lock: its key is locked instead, until the commit.
        await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `annotations:${buildId}:${context}`,
        ]);
        const [row] = await tx.query(
          `select ${COLUMNS} from annotations where build_id = $1 and context = $2`,
          [buildId, context],
        );
        const next = change(row ? toAnnotation(row) : null);
        await tx.query(
          `insert into annotations (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           on conflict (build_id, context) do update set job_id = excluded.job_id, style = excluded.style,
             priority = excluded.priority, body = excluded.body, body_html = excluded.body_html,
             updated_at = excluded.updated_at`,
          [
            next.id,
            buildId,
            next.jobId,
            context,
            next.style,
            next.priority,
            next.body,
            next.bodyHtml,
            next.createdAt,
            next.updatedAt,
          ],
        );
        return next;
      });
    },
    async delete(key) {
      const [column, value] = 'id' in key ? ['id', key.id] : ['context', key.context];
      const rows = await sql.query(
        `delete from annotations where build_id = $1 and ${column} = $2 returning id`,
        [key.buildId, value],
      );
      return rows.length > 0;
    },
    async byIds(ids) {
      if (ids.length === 0) return [];
      const rows = await sql.query(`select ${COLUMNS} from annotations where id = any($1::uuid[])`, [ids]);
      return rows.map(toAnnotation);
    },
    async listOfBuilds(windows, filter = NO_FILTER) {
      if (windows.every((window) => window.limit === 0)) return [];
      const order = filter.byPriority
        ? 'a.priority desc, a.created_at desc, a.id desc'
        : 'a.created_at desc, a.id desc';
      const rows = await sql.query(
        `${inParentWindows(
          `select ${COLUMNS} from annotations a where a.build_id = w.parent_id
             and ($4::text[] is null or a.style = any($4::text[]))
           order by ${order} offset w.off limit w.lim`,
        )}`,
        [...parentWindows(windows), filter.styles],
      );
      return rows.map(toAnnotation);
    },
    async countOfBuilds(buildIds, filter = NO_FILTER) {
      if (buildIds.length === 0) return [];
      const rows = await sql.query<{ build_id: string; count: string }>(
        `select build_id, count(*) as count from annotations
         where build_id = any($1::uuid[]) and ($2::text[] is null or style = any($2::text[])) group by build_id`,
        [buildIds, filter.styles],
      );
      return rows.map((row) => ({ parentId: row.build_id, count: Number(row.count) }));
    },
  };
}
