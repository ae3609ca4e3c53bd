/** `KEY=value` texts: how the public GraphQL API lists environment variables and takes meta-data filters. */
export function asKeyValues(map: Record<string, string>): string[] {
  return Object.entries(map).map(([key, value]) => `${key}=${value}`);
}

/** `["KEY=value"]` as an object (the value is what follows the first `=`); `invalid` names the refusal. */
export function parseKeyValues(
  entries: readonly string[],
  invalid: (entry: string) => Error,
): Record<string, string> {
  // Entries, then one object: a key such as `__proto__` stays a key, never a prototype.
  return Object.fromEntries(
    entries.map((entry) => {
      const at = entry.indexOf('=');
      if (at <= 0) throw invalid(entry);
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
  );
}
