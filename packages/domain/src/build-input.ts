import { type FieldError, type FieldErrorCode, validationFailed } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/** A validated create-build body. */
export interface BuildRequest {
  commit: string;
  branch: string;
  message: string | null;
  /** null: none given (no name and no email); the build's `author` is then null. */
  author: { name: string; email: string } | null;
  cleanCheckout: boolean;
  env: Record<string, string>;
  ignorePipelineBranchFilters: boolean;
  metaData: Record<string, string>;
  pullRequest: { id: string; base: string | null; repository: string | null } | null;
}

export const BUILD_REQUEST_LIMITS = {
  commit: 255,
  branch: 255,
  message: 10_000,
  author: 255,
  pullRequest: 255,
  mapKeys: 100,
  mapKey: 255,
  mapValue: 10_000,
} as const;

/**
 * Reads the JSON body of a create-build request. Every invalid field is reported at once; unknown
 * fields are ignored. `pull_request_base_branch` and `pull_request_repository` only count together
 * with a `pull_request_id`.
 */
export function parseBuildRequest(body: unknown): Result<BuildRequest> {
  const input = isJsonObject(body) ? body : {};
  const errors: FieldError[] = [];
  const fail = (field: string, code: FieldErrorCode, message: string): null => {
    errors.push({ field, code, message });
    return null;
  };

  const readString = (
    value: unknown,
    field: string,
    { max, required }: { max: number; required: boolean },
  ) => {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      return required ? fail(field, 'missing', `${field} can't be blank`) : null;
    }
    if (typeof value !== 'string') return fail(field, 'invalid', `${field} must be a string`);
    if (!isStorableText(value)) return fail(field, 'invalid', `${field} ${UNSTORABLE_TEXT}`);
    if (value.length > max) {
      return fail(field, 'too_long', `${field} is too long (maximum is ${max} characters)`);
    }
    return value;
  };

  const readFlag = (field: string): boolean => {
    const value = input[field];
    if (value === undefined || value === null) return false;
    if (typeof value === 'boolean') return value;
    fail(field, 'invalid', `${field} must be true or false`);
    return false;
  };

  const readStringMap = (field: string): Record<string, string> => {
    const value = input[field];
    if (value === undefined || value === null) return {};
    if (!isJsonObject(value)) {
      fail(field, 'invalid', `${field} must be an object of strings`);
      return {};
    }
    const entries = Object.entries(value);
    if (entries.length > BUILD_REQUEST_LIMITS.mapKeys) {
      fail(field, 'too_long', `${field} has too many keys (maximum is ${BUILD_REQUEST_LIMITS.mapKeys})`);
      return {};
    }
    for (const [key, entry] of entries) {
      if (key === '') fail(field, 'invalid', `${field} keys can't be blank`);
      else if (!isStorableText(key)) fail(field, 'invalid', `${field} keys ${UNSTORABLE_TEXT}`);
      else if (key.length > BUILD_REQUEST_LIMITS.mapKey) {
        fail(field, 'too_long', `${field} keys are limited to ${BUILD_REQUEST_LIMITS.mapKey} characters`);
      } else if (typeof entry !== 'string') fail(field, 'invalid', `${field}.${key} must be a string`);
      else if (!isStorableText(entry)) fail(field, 'invalid', `${field}.${key} ${UNSTORABLE_TEXT}`);
      else if (entry.length > BUILD_REQUEST_LIMITS.mapValue) {
        fail(
          field,
          'too_long',
          `${field}.${key} is too long (maximum is ${BUILD_REQUEST_LIMITS.mapValue} characters)`,
        );
      }
    }
    // fromEntries keeps a `__proto__` key as plain data instead of setting the prototype.
    return Object.fromEntries(entries) as Record<string, string>;
  };

  const readAuthor = (): BuildRequest['author'] => {
    const value = input.author;
    if (value === undefined || value === null) return null;
    if (!isJsonObject(value)) {
      return fail('author', 'invalid', 'author must be an object with name and email');
    }
    // Go clients send `"author":{}` when no author is set (an empty struct survives `omitempty`).
    const blank = (part: unknown) => part === undefined || part === null || part === '';
    if (blank(value.name) && blank(value.email)) return null;
    const limit = { max: BUILD_REQUEST_LIMITS.author, required: true };
    const name = readString(value.name, 'author.name', limit);
    const email = readString(value.email, 'author.email', limit);
    return name !== null && email !== null ? { name, email } : null;
  };

  const readPullRequest = (): BuildRequest['pullRequest'] => {
    const value = input.pull_request_id;
    if (value === undefined || value === null) return null;
    const id = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      return fail('pull_request_id', 'invalid', 'pull_request_id must be a positive integer');
    }
    const limit = { max: BUILD_REQUEST_LIMITS.pullRequest, required: false };
    const base = readString(input.pull_request_base_branch, 'pull_request_base_branch', limit);
    const repository = readString(input.pull_request_repository, 'pull_request_repository', limit);
    return { id: String(id), base, repository };
  };

  const request = {
    commit: readString(input.commit, 'commit', { max: BUILD_REQUEST_LIMITS.commit, required: true }),
    branch: readString(input.branch, 'branch', { max: BUILD_REQUEST_LIMITS.branch, required: true }),
    message: readString(input.message, 'message', { max: BUILD_REQUEST_LIMITS.message, required: false }),
    author: readAuthor(),
    cleanCheckout: readFlag('clean_checkout'),
    env: readStringMap('env'),
    ignorePipelineBranchFilters: readFlag('ignore_pipeline_branch_filters'),
    metaData: readStringMap('meta_data'),
    pullRequest: readPullRequest(),
  };
  const { commit, branch } = request;
  if (errors.length > 0 || commit === null || branch === null) return err(validationFailed(errors));
  return ok({ ...request, commit, branch });
}

const TAG_REF = 'refs/tags/';

/** The tag a build's commit names (`refs/tags/v1.2` names `v1.2`), else null: the wire's `tag`. */
export function buildTag(commit: string): string | null {
  return commit.startsWith(TAG_REF) && commit.length > TAG_REF.length ? commit.slice(TAG_REF.length) : null;
}
