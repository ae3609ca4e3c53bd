import type { Artifact, ArtifactState, DomainError } from '@ci/domain';

export interface ArtifactRepository {
  /** Inserts a job's declared artifacts in one statement. */
  insert(artifacts: readonly Artifact[]): Promise<void>;
  find(id: string): Promise<Artifact | null>;
  /** The artifacts of these ids that exist, in any order (GraphQL's reads by id). */
  byIds(ids: readonly string[]): Promise<Artifact[]>;
  /** A job's artifacts, oldest first. */
  ofJob(jobId: string, page: { offset: number; limit: number }): Promise<Artifact[]>;
  /** A build's artifacts, oldest first. */
  ofBuild(buildId: string, page: { offset: number; limit: number }): Promise<Artifact[]>;
  countOfJob(jobId: string): Promise<number>;
  countOfBuild(buildId: string): Promise<number>;
  /** The artifacts of several jobs or builds at once (GraphQL's pages), oldest first. */
  ofJobs(jobIds: readonly string[], filter: ArtifactFilter): Promise<Artifact[]>;
  ofBuilds(buildIds: readonly string[], filter: ArtifactFilter): Promise<Artifact[]>;
  /**
   * Moves the artifact from one of `from` to `to` (with its upload time when given); false when it is in
   * none of them (or gone), so two uploads of the same artifact cannot both finish it.
   */
  changeState(input: {
    id: string;
    from: readonly ArtifactState[];
    to: ArtifactState;
    uploadedAt?: Date;
  }): Promise<boolean>;
  delete(id: string): Promise<boolean>;
}

export interface ArtifactFilter {
  /** null: every state */
  state: ArtifactState | null;
}

/** What a store read from an upload: the byte count and the digests, in lowercase hex. */
export interface StoredContent {
  size: number;
  sha1: string;
  sha256: string;
}

/** Where an artifact's bytes are stored: a folder, or an S3-compatible bucket. */
export interface ArtifactStore {
  /**
   * Reads `body` (at most `maxBytes`, else a `payload_too_large` refusal) aside, asks `check` about what it
   * read, and only when `check` answers null makes it the content of `key`; otherwise throws what `check`
   * answered and keeps nothing. A content is either whole under its key or absent.
   */
  put(input: {
    key: string;
    body: AsyncIterable<Uint8Array>;
    maxBytes: number;
    mimeType: string;
    check: (stored: StoredContent) => DomainError | null;
  }): Promise<StoredContent>;
  /** Removes the key's content; a key with none is no error. */
  remove(key: string): Promise<void>;
  /** An address that serves the content without a token until `expiresAt` (signed). */
  downloadUrl(input: { key: string; filename: string; mimeType: string }): Promise<{
    url: string;
    expiresAt: Date;
  }>;
  /**
   * The content behind an address this store signed and serves itself; null when the signature is not
   * its own or has expired, or the content is gone.
   */
  openSigned(input: { key: string; query: Readonly<Record<string, string>> }): Promise<{
    body: AsyncIterable<Uint8Array>;
    size: number;
    mimeType: string;
    filename: string;
  } | null>;
}

/** The artifact settings of a process: its store and the largest file it takes. */
export interface ArtifactSettings {
  store: ArtifactStore;
  maxBytes: number;
}

/** The store key of an artifact's bytes: ids only, never the path a job chose. */
export function artifactKey(artifact: Pick<Artifact, 'buildId' | 'jobId' | 'id'>): string {
  return `${artifact.buildId}/${artifact.jobId}/${artifact.id}`;
}
