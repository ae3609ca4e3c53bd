import { badRequest } from './errors';
import { err, ok, type Result } from './result';

/** Surrogates that pair up form one code point under the `u` flag; only unpaired ones match. */
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

/**
 * Whether the service can keep this text as it was sent: PostgreSQL's `text` and `jsonb` refuse the NUL
 * character, `jsonb` refuses unpaired UTF-16 surrogates, and UTF-8 cannot encode them either.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);
}

/** What a refusal says of text that is not storable, after the field's name. */
export const UNSTORABLE_TEXT = "can't contain NUL characters or unpaired surrogates";

/** The longest text a list's `search` or `email` filter takes. */
export const MAX_LIST_FILTER_LENGTH = 255;

/**
 * A list's text filter (`search`, `email`) as the database can compare it: null when absent or empty;
 * text it could not keep, or longer than {@link MAX_LIST_FILTER_LENGTH}, refused naming the argument.
 */
export function parseListFilterText(
  argument: string,
  value: string | null | undefined,
): Result<string | null> {
  if (value === null || value === undefined || value === '') return ok(null);
  if (!isStorableText(value)) return err(badRequest('invalid_parameter', `${argument} ${UNSTORABLE_TEXT}`));
  if (value.length > MAX_LIST_FILTER_LENGTH) {
    return err(
      badRequest(
        'invalid_parameter',
        `${argument} is too long (maximum is ${MAX_LIST_FILTER_LENGTH} characters)`,
      ),
    );
  }
  return ok(value);
}
