import type { BuildResult } from '@ci/application';
import { type Artifact, artifactDirname, artifactFilename } from '@ci/domain';
import type { z } from 'zod';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { ArtifactWire } from './artifact.wire';

export function presentArtifact(
  build: BuildResult,
  artifact: Artifact,
  urls: PublicUrls,
): z.infer<typeof ArtifactWire> {
  const { organizationSlug, pipeline, build: row } = build.view;
  const buildUrl = apiAddresses.build(urls.api, organizationSlug, pipeline.slug, row.number);
  const url = `${apiAddresses.job(buildUrl, artifact.jobId)}/artifacts/${artifact.id}`;
  return {
    id: artifact.id,
    job_id: artifact.jobId,
    url,
    download_url: `${url}/download`,
    state: artifact.state,
    path: artifact.path,
    dirname: artifactDirname(artifact.path),
    filename: artifactFilename(artifact.path),
    mime_type: artifact.mimeType,
    file_size: artifact.fileSize,
    glob_path: artifact.globPath,
    original_path: artifact.originalPath,
    sha1sum: artifact.sha1sum,
  };
}
