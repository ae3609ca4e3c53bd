export { fileArtifactStore } from './file-store';
export { type S3StoreOptions, s3ArtifactStore } from './s3-store';
export { signDownload, verifyDownload } from './signed-url';
