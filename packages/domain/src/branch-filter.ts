/**
 * Whether `value` matches a pattern in which `*` stands for any run of characters (including '/').
 * Matched without RegExp, so user-supplied patterns cannot inject syntax or backtrack badly.
 */
export function matchesBranchPattern(pattern: string, value: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === value;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) {
    return false;
  }
  // Taking the leftmost place for each middle piece leaves the most room for the rest.
  let position = first.length;
  const end = value.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = value.indexOf(piece, position);
    if (found === -1 || found + piece.length > end) return false;
    position = found + piece.length;
  }
  return true;
}

/**
 * The public branch filter form: space-separated patterns, `!` marks an exclusion. An empty filter
 * matches every branch, exclusions win over inclusions, and a filter of only exclusions matches
 * every branch it does not exclude.
 */
export function matchesBranchFilter(filter: string | null | undefined, branch: string): boolean {
  const patterns = filter?.split(/\s+/).filter((pattern) => pattern !== '') ?? [];
  const exclusions = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));
  const inclusions = patterns.filter((pattern) => !pattern.startsWith('!'));
  if (exclusions.some((pattern) => matchesBranchPattern(pattern, branch))) return false;
  return inclusions.length === 0 || inclusions.some((pattern) => matchesBranchPattern(pattern, branch));
}
