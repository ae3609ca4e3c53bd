import { err, ok, type RegexEngine, type RegexMatcher } from '@ci/domain';
import { LRUCache } from 'lru-cache';
import { RE2JS, RE2JSException } from 're2js';

/** Patterns compiled lately: a pipeline's steps are read again for every build it makes. */
const compiled = new LRUCache<string, RegexMatcher>({ max: 500 });

/**
 * The patterns of steps' `if` (`=~`, `!~`), compiled by RE2 (re2js, pure JS): its matching takes time
 * linear in the text, so no pattern from a pipeline file can backtrack, and it refuses what it cannot
 * run that way (backreferences, lookaround) as a syntax error.
 */
export const stepPatterns: RegexEngine = (pattern, { caseInsensitive }) => {
  const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
  const known = compiled.get(key);
  if (known) return ok(known);
  let matcher: RegexMatcher;
  try {
    const re2 = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    matcher = (text) => re2.test(text);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return err(reason(pattern, error));
  }
  compiled.set(key, matcher);
  return ok(matcher);
};

/** RE2's reason, about the pattern as written: with `i` its message quotes the pattern behind `(?i)`. */
function reason(pattern: string, error: RE2JSException): string {
  let message = error.message;
  try {
    RE2JS.compile(pattern);
  } catch (plain) {
    if (plain instanceof RE2JSException) message = plain.message;
  }
  return message.replace(/^error parsing regexp: /, '');
}
