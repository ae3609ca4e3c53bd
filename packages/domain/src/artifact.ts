import { badRequest, DomainError } from './errors';

/** `new` until its bytes are stored and checked, then `finished`; `error` when the upload failed. */
export const ARTIFACT_STATES = ['new', 'finished', 'error'] as const;
export type ArtifactState = (typeof ARTIFACT_STATES)[number];

export function isArtifactState(value: string): value is ArtifactState {
  return (ARTIFACT_STATES as readonly string[]).includes(value);
}

/** A file a job uploaded: its path relative to the job's working directory, and its checksums. */
export interface Artifact {
  id: string;
  jobId: string;
  buildId: string;
  path: string;
  globPath: string | null;
  originalPath: string | null;
  mimeType: string;
  fileSize: number;
  sha1sum: string;
  sha256sum: string | null;
  state: ArtifactState;
  createdAt: Date;
  uploadedAt: Date | null;
}

/** What a job declares before it uploads: everything but what the server decides. */
export interface ArtifactDeclaration {
  path: string;
  globPath: string | null;
  originalPath: string | null;
  mimeType: string | null;
  fileSize: number;
  sha1sum: string;
  sha256sum: string | null;
}

/** The most artifacts one batch may declare (the public agent sends batches of at most 30). */
export const MAX_ARTIFACT_BATCH = 1000;
const MAX_PATH_LENGTH = 1024;

/**
 * An artifact path as stored: relative, `/`-separated, no `.` or `..` segment, so that it names a file
 * inside the job's working directory and a download can never write outside its destination.
 */
export function artifactPath(raw: string): string {
  const path = raw.replaceAll('\\', '/').replace(/^(\.\/)+/, '');
  const refuse = (why: string) =>
    badRequest('invalid_artifact_path', `The artifact path "${raw.slice(0, 100)}" ${why}`);
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) throw refuse('must have 1 to 1024 characters');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(path)) throw refuse('holds a control character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    throw refuse('must be relative to the working directory');
  const segments = path.split('/');
  if (segments.some((segment) => segment === '..')) throw refuse('must not leave the working directory (..)');
  if (segments.some((segment) => segment === '' || segment === '.'))
    throw refuse('has an empty or "." segment');
  return path;
}

export function isArtifactPathValid(raw: string): boolean {
  try {
    artifactPath(raw);
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

/** The folder and the file name of a stored path, as the public API shows them (`.` for none). */
export function artifactDirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

export function artifactFilename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const SHA1 = /^[0-9a-f]{40}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** A declaration checked: a valid path, a size within `maxBytes`, checksums in lowercase hex. */
export function checkArtifactDeclaration(
  declaration: ArtifactDeclaration,
  maxBytes: number,
): ArtifactDeclaration {
  const path = artifactPath(declaration.path);
  if (!Number.isSafeInteger(declaration.fileSize) || declaration.fileSize < 0) {
    throw badRequest('invalid_file_size', `file_size of "${path}" must be a whole number, 0 or more`);
  }
  if (declaration.fileSize > maxBytes) {
    throw new DomainError({
      kind: 'payload_too_large',
      code: 'artifact_too_large',
      message: `The artifact "${path}" has ${declaration.fileSize} bytes; the limit is ${maxBytes}`,
    });
  }
  const sha1sum = declaration.sha1sum.toLowerCase();
  if (!SHA1.test(sha1sum)) throw badRequest('invalid_sha1sum', `sha1sum of "${path}" must be 40 hex digits`);
  const sha256sum = declaration.sha256sum?.toLowerCase() || null;
  if (sha256sum !== null && !SHA256.test(sha256sum)) {
    throw badRequest('invalid_sha256sum', `sha256sum of "${path}" must be 64 hex digits`);
  }
  const mimeType =
    declaration.mimeType && /^[\w.+-]+\/[\w.+-]+(;.{0,100})?$/.test(declaration.mimeType)
      ? declaration.mimeType
      : mimeTypeOf(path);
  return { ...declaration, path, sha1sum, sha256sum, mimeType };
}

/** Whether stored bytes are what was declared; the message says which part differs. */
export function artifactContentProblem(
  declared: Pick<Artifact, 'fileSize' | 'sha1sum' | 'sha256sum' | 'path'>,
  stored: { size: number; sha1: string; sha256: string },
): DomainError | null {
  const differs = (what: string, declaredValue: string | number, got: string | number) =>
    unprocessableArtifact(`${what} of "${declared.path}" is ${got}, not the declared ${declaredValue}`);
  if (stored.size !== declared.fileSize) return differs('the size', declared.fileSize, stored.size);
  if (stored.sha1 !== declared.sha1sum) return differs('the sha1sum', declared.sha1sum, stored.sha1);
  if (declared.sha256sum !== null && stored.sha256 !== declared.sha256sum) {
    return differs('the sha256sum', declared.sha256sum, stored.sha256);
  }
  return null;
}

function unprocessableArtifact(message: string): DomainError {
  return new DomainError({ kind: 'unprocessable', code: 'artifact_mismatch', message });
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  json: 'application/json',
  js: 'text/javascript',
  yml: 'application/yaml',
  yaml: 'application/yaml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
};

/** The content type a file's extension suggests; `application/octet-stream` when it says nothing. */
export function mimeTypeOf(path: string): string {
  const name = artifactFilename(path);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && MIME_TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/**
 * A glob of the public agent's search and upload (`*` within a folder, `**` across folders, `?` one
 * character, `{a,b}` either) as a regular expression over a whole `/`-separated path.
 */
export function artifactGlob(glob: string): RegExp {
  let source = '';
  let depth = 0;
  const pattern = glob.replaceAll('\\', '/').replace(/^(\.\/)+/, '');
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        const slashAfter = pattern[index + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        index += slashAfter ? 2 : 1;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      depth++;
      source += '(?:';
    } else if (char === '}' && depth > 0) {
      depth--;
      source += ')';
    } else if (char === ',' && depth > 0) source += '|';
    else source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}${')'.repeat(depth)}$`);
}

/** The part of a glob before its first wildcard's folder: where a search of the file system starts. */
export function globBase(glob: string): string {
  const segments = glob
    .replaceAll('\\', '/')
    .replace(/^(\.\/)+/, '')
    .split('/');
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?{]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join('/');
}
