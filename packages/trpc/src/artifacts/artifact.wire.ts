import { ARTIFACT_STATES } from '@ci/domain';
import { z } from 'zod';

/** An artifact as the public API shows it (recorded: artifact_retrieve.json). */
export const ArtifactWire = z
  .strictObject({
    id: z.uuid(),
    job_id: z.uuid(),
    url: z.string(),
    download_url: z.string(),
    state: z.enum(ARTIFACT_STATES),
    path: z.string(),
    dirname: z.string(),
    filename: z.string(),
    mime_type: z.string(),
    file_size: z.number().int(),
    glob_path: z.string().nullable(),
    original_path: z.string().nullable(),
    sha1sum: z.string(),
  })
  .meta({ id: 'Artifact' });

export const ArtifactDownloadWire = z
  .strictObject({
    url: z.string().meta({ description: 'a signed address of the bytes; also in `Location`' }),
  })
  .meta({ id: 'ArtifactDownload' });
