import type { FieldError } from './errors';
import { isUuid } from './ids';
import { err, ok, type Result } from './result';
import { slugify } from './slug';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/**
 * Reads of the fields several request bodies share (teams, registries, team members, team pipelines),
 * each answering the reason the public API gives in its Rails form (`Name can't be blank`); the caller
 * collects them with `reasonsOf` into its own `Validation failed: …`.
 */

/** A name the object's slug is made of: the slug is its address, so a name must leave something of it. */
export function readSluggedName(value: unknown, maxLength: number): Result<string, string> {
  const name = typeof value === 'string' ? value.trim() : value;
  if (name === undefined || name === null || name === '') return err("Name can't be blank");
  if (typeof name !== 'string') return err('Name is invalid');
  if (!isStorableText(name)) return err(`Name ${UNSTORABLE_TEXT}`);
  if (name.length > maxLength) return err(`Name is too long (maximum is ${maxLength} characters)`);
  if (slugify(name) === '') return err('Name must contain at least one letter or digit');
  return ok(name);
}

/** A description, or null for none. */
export function readDescription(value: unknown, maxLength: number): Result<string | null, string> {
  if (value === null) return ok(null);
  if (typeof value !== 'string') return err('Description is invalid');
  if (!isStorableText(value)) return err(`Description ${UNSTORABLE_TEXT}`);
  if (value.length > maxLength) return err(`Description is too long (maximum is ${maxLength} characters)`);
  return ok(value);
}

/**
 * An optional text field of a request body: undefined when absent, null when null or empty (a clear), else
 * the text; anything but storable text of at most `max` characters is refused as the field's error.
 */
export function readOptionalText(
  value: unknown,
  field: string,
  max: number,
): Result<string | null | undefined, FieldError> {
  if (value === undefined) return ok(undefined);
  if (value === null || value === '') return ok(null);
  if (typeof value !== 'string') return err({ field, code: 'invalid', message: `${field} must be a string` });
  if (!isStorableText(value)) return err({ field, code: 'invalid', message: `${field} ${UNSTORABLE_TEXT}` });
  if (value.length > max) {
    return err({ field, code: 'too_long', message: `${field} is too long (maximum is ${max} characters)` });
  }
  return ok(value);
}

/** The UUID of another object (`User`, `Pipeline`), lowercase; whether it exists is the caller's question. */
export function readUuidField(value: unknown, label: string): Result<string, string> {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return err(`${label} can't be blank`);
  }
  if (typeof value !== 'string' || !isUuid(value)) return err(`${label} is invalid`);
  return ok(value.toLowerCase());
}

/** Every reason these reads refused, in order. */
export function reasonsOf(...results: Result<unknown, string | readonly string[]>[]): string[] {
  return results.flatMap((result) => (result.ok ? [] : result.error));
}
