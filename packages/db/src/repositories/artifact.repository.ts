import type { ArtifactRepository } from '@ci/application';
import type { Artifact, ArtifactState } from '@ci/domain';
import { toDate, toDateOrNull } from '../rows';
import type { Sql } from '../sql';

const COLUMNS = `id, job_id, build_id, path, glob_path, original_path, mime_type, file_size, sha1sum, sha256sum,
  state, created_at, uploaded_at`;

function artifactFromRow(row: Record<string, unknown>): Artifact {
  return {
    id: row.id as string,
    jobId: row.job_id as string,
    buildId: row.build_id as string,
    path: row.path as string,
    globPath: (row.glob_path as string | null) ?? null,
    originalPath: (row.original_path as string | null) ?? null,
    mimeType: row.mime_type as string,
    fileSize: Number(row.file_size),
    sha1sum: row.sha1sum as string,
    sha256sum: (row.sha256sum as string | null) ?? null,
    state: row.state as ArtifactState,
    createdAt: toDate(row.created_at),
    uploadedAt: toDateOrNull(row.uploaded_at),
  };
}

/** Artifacts in SQL: a batch is one insert, every list one statement on its ordered index. */
export function artifactRepository(sql: Sql): ArtifactRepository {
  const list = async (text: string, params: readonly unknown[]) =>
    (await sql.query(text, params)).map(artifactFromRow);
  return {
    async insert(artifacts) {
      if (artifacts.length === 0) return;
      await sql.query(
        `insert into artifacts (${COLUMNS})
         select * from jsonb_to_recordset($1::jsonb) as x(id uuid, job_id uuid, build_id uuid, path text,
           glob_path text, original_path text, mime_type text, file_size bigint, sha1sum text, sha256sum text,
           state text, created_at timestamptz, uploaded_at timestamptz)`,
        [
          JSON.stringify(
            artifacts.map((artifact) => ({
              id: artifact.id,
              job_id: artifact.jobId,
              build_id: artifact.buildId,
              path: artifact.path,
              glob_path: artifact.globPath,
              original_path: artifact.originalPath,
              mime_type: artifact.mimeType,
              file_size: artifact.fileSize,
              sha1sum: artifact.sha1sum,
              sha256sum: artifact.sha256sum,
              state: artifact.state,
              created_at: artifact.createdAt.toISOString(),
              uploaded_at: artifact.uploadedAt?.toISOString() ?? null,
            })),
          ),
        ],
      );
    },

    async find(id) {
      const [artifact] = await list(`select ${COLUMNS} from artifacts where id = $1`, [id]);
      return artifact ?? null;
    },

    byIds: (ids) =>
      ids.length === 0
        ? Promise.resolve([])
        : list(`select ${COLUMNS} from artifacts where id = any($1::uuid[])`, [ids]),

    ofJob: (jobId, page) =>
      list(`select ${COLUMNS} from artifacts where job_id = $1 order by created_at, id offset $2 limit $3`, [
        jobId,
        page.offset,
        page.limit,
      ]),

    ofBuild: (buildId, page) =>
      list(
        `select ${COLUMNS} from artifacts where build_id = $1 order by created_at, id offset $2 limit $3`,
        [buildId, page.offset, page.limit],
      ),

    async countOfJob(jobId) {
      const [row] = await sql.query('select count(*)::int as count from artifacts where job_id = $1', [
        jobId,
      ]);
      return (row?.count as number) ?? 0;
    },

    async countOfBuild(buildId) {
      const [row] = await sql.query('select count(*)::int as count from artifacts where build_id = $1', [
        buildId,
      ]);
      return (row?.count as number) ?? 0;
    },

    ofJobs: (jobIds, filter) =>
      list(
        `select ${COLUMNS} from artifacts where job_id = any($1::uuid[]) and ($2::text is null or state = $2)
         order by created_at, id`,
        [jobIds, filter.state],
      ),

    ofBuilds: (buildIds, filter) =>
      list(
        `select ${COLUMNS} from artifacts where build_id = any($1::uuid[]) and ($2::text is null or state = $2)
         order by created_at, id`,
        [buildIds, filter.state],
      ),

    async changeState(input) {
      const rows = await sql.query(
        `update artifacts set state = $3, uploaded_at = coalesce($4, uploaded_at)
         where id = $1 and state = any($2::text[]) returning id`,
        [input.id, input.from, input.to, input.uploadedAt ?? null],
      );
      return rows.length > 0;
    },

    async delete(id) {
      return (await sql.query('delete from artifacts where id = $1 returning id', [id])).length > 0;
    },
  };
}
