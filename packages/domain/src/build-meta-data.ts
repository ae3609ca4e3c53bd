import { badRequest, type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/** Bounds on a build's meta-data as jobs set it: a build cannot be grown without end from inside a job. */
export const META_DATA_LIMITS = { keyLength: 255, valueBytes: 100 * 1024, keysPerBuild: 1000 } as const;

/** A meta-data key as a job names it: 1–255 characters, no line breaks, storable. */
export function checkMetaDataKey(key: unknown): Result<string, DomainError> {
  if (typeof key !== 'string' || key.trim() === '') {
    return err(badRequest('invalid_meta_data', 'key must be a non-empty string'));
  }
  if (key.length > META_DATA_LIMITS.keyLength) {
    return err(
      badRequest('invalid_meta_data', `key is longer than ${META_DATA_LIMITS.keyLength} characters`),
    );
  }
  if (/[\r\n]/.test(key)) return err(badRequest('invalid_meta_data', "key can't contain line breaks"));
  if (!isStorableText(key)) return err(badRequest('invalid_meta_data', `key ${UNSTORABLE_TEXT}`));
  return ok(key);
}

/** The refusal of a new key when the build already holds `maxKeys`; nothing of the write is kept. */
export function tooManyMetaDataKeys(maxKeys: number): DomainError {
  return unprocessable('too_many_keys', `A build may hold at most ${maxKeys} meta-data keys`);
}

const utf8 = new TextEncoder();

/** A meta-data value as a job sets it: not blank (as the public agent API), at most 100 KiB, storable. */
export function checkMetaDataValue(value: unknown): Result<string, DomainError> {
  if (typeof value !== 'string' || value.trim() === '') {
    return err(badRequest('invalid_meta_data', "value can't be blank"));
  }
  if (utf8.encode(value).length > META_DATA_LIMITS.valueBytes) {
    return err(
      badRequest('invalid_meta_data', `value is larger than ${META_DATA_LIMITS.valueBytes / 1024} KiB`),
    );
  }
  if (!isStorableText(value)) return err(badRequest('invalid_meta_data', `value ${UNSTORABLE_TEXT}`));
  return ok(value);
}
