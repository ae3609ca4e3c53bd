import { err, ok } from './result';
import type { RegexEngine } from './step-condition';

/**
 * The domain's tests take no package, so they compile patterns with JavaScript's RegExp; the
 * application passes RE2 (linear-time), which its own tests exercise.
 */
export const testPatterns: RegexEngine = (pattern, { caseInsensitive }) => {
  try {
    const compiled = new RegExp(pattern, caseInsensitive ? 'i' : '');
    return ok((text) => compiled.test(text));
  } catch (error) {
    return err((error as Error).message);
  }
};
