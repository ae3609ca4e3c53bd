/** Build numbers stay within a 32-bit signed integer, the range clients and path parsers expect. */
export const MAX_BUILD_NUMBER = 2_147_483_647;

/** Takes the pipeline's next build number (counters start at 1) and returns the counter to store back. */
export function allocateBuildNumber(counter: number): { number: number; nextCounter: number } {
  if (!Number.isInteger(counter) || counter < 1 || counter > MAX_BUILD_NUMBER) {
    throw new RangeError(
      `A build number counter must be an integer from 1 to ${MAX_BUILD_NUMBER}, got ${counter}`,
    );
  }
  return { number: counter, nextCounter: counter + 1 };
}

/** Only the canonical decimal form of a positive build number: no sign, leading zero, fraction or exponent. */
export function parseBuildNumber(s: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(s)) return null;
  const number = Number(s);
  return number <= MAX_BUILD_NUMBER ? number : null;
}
