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
