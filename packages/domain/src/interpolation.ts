import { err, ok, type Result } from './result';

/** Why a text could not be interpolated: the variable's message (`${X:?msg}`) or a syntax problem. */
export interface InterpolationError {
  message: string;
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

/**
 * Replaces variables in `text` from `env`, as the public pipeline format does on upload:
 * `$NAME` and `${NAME}` (empty when unset), `${NAME:-default}` (default when unset or empty),
 * `${NAME-default}` (when unset), `${NAME:?message}` / `${NAME?message}` (fail when unset [or empty]),
 * `${NAME:offset}` and `${NAME:offset:length}` (a substring; a negative offset counts from the end and
 * needs a space or parentheses: `${NAME: -2}`). `$$` and `\$` are a literal `$`; a `$` that starts no
 * variable (`$1`, `$ `, a final `$`) stays as it is. Defaults are interpolated in turn.
 */
export function interpolate(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Result<string, InterpolationError> {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === '\\' && next === '$') {
      out += '$';
      i += 2;
    } else if (char !== '$') {
      out += char;
      i++;
    } else if (next === '$') {
      out += '$';
      i += 2;
    } else if (next !== undefined && NAME_START.test(next)) {
      let end = i + 2;
      while (end < text.length && NAME_PART.test(text[end]!)) end++;
      out += env[text.slice(i + 1, end)] ?? '';
      i = end;
    } else if (next === '{') {
      const close = matchingBrace(text, i + 2);
      if (close < 0) return err({ message: `unterminated \${ in "${excerpt(text, i)}"` });
      const expanded = expand(text.slice(i + 2, close), env);
      if (!expanded.ok) return expanded;
      out += expanded.value;
      i = close + 1;
    } else {
      out += '$';
      i++;
    }
  }
  return ok(out);
}

/** The index of the `}` closing a `${` whose body starts at `from`, nested `${…}` skipped; -1 when none. */
function matchingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' || (char === '$' && text[i + 1] === '$')) {
      i++;
    } else if (char === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (char === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function excerpt(text: string, at: number): string {
  const part = text.slice(at, at + 40);
  return part.length < text.length - at ? `${part}…` : part;
}

/** The body of a `${…}`: a name, then nothing or one operator with its word. */
function expand(
  body: string,
  env: Readonly<Record<string, string | undefined>>,
): Result<string, InterpolationError> {
  let end = 0;
  if (body.length === 0 || !NAME_START.test(body[0]!)) {
    return err({ message: `bad substitution: \${${body}}` });
  }
  while (end < body.length && NAME_PART.test(body[end]!)) end++;
  const name = body.slice(0, end);
  const rest = body.slice(end);
  const value = env[name];
  if (rest === '') return ok(value ?? '');
  const word = (from: number) => interpolate(rest.slice(from), env);
  if (rest.startsWith(':-')) return value ? ok(value) : word(2);
  if (rest.startsWith('-')) return value !== undefined ? ok(value) : word(1);
  if (rest.startsWith(':?') || rest.startsWith('?')) {
    const colon = rest.startsWith(':');
    if (colon ? value : value !== undefined) return ok(value ?? '');
    const message = word(colon ? 2 : 1);
    if (!message.ok) return message;
    return err({ message: `${name}: ${message.value || (colon ? 'not set or empty' : 'not set')}` });
  }
  if (rest.startsWith(':')) return substring(name, value ?? '', rest.slice(1));
  return err({ message: `bad substitution: \${${body}}` });
}

const OFFSET = /^\s*(?:\(\s*(-?\d+)\s*\)|(-?\d+))\s*(?::\s*(\d+)\s*)?$/;

/** `${NAME:offset[:length]}`: a negative offset needs a space or parentheses, or it reads as `:-`. */
function substring(name: string, value: string, spec: string): Result<string, InterpolationError> {
  const match = OFFSET.exec(spec);
  if (!match) return err({ message: `bad substitution: \${${name}:${spec}}` });
  const offset = Number(match[1] ?? match[2]);
  const start = offset < 0 ? Math.max(0, value.length + offset) : Math.min(offset, value.length);
  const length = match[3] === undefined ? undefined : Number(match[3]);
  return ok(length === undefined ? value.slice(start) : value.slice(start, start + length));
}
