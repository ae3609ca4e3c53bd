/**
 * The arrows point inward: transports → application → domain; db → application ports + domain.
 * `domain` imports nothing of ours and no npm package; db, trpc, graphql and
 * artifact-store never import each other.
 */
export const RULES = {
  domain: { allowed: [], npm: false },
  application: { allowed: ['domain'], npm: true },
  db: { allowed: ['domain', 'application'], npm: true },
  trpc: { allowed: ['domain', 'application'], npm: true },
  graphql: { allowed: ['domain', 'application'], npm: true },
  'artifact-store': { allowed: ['domain', 'application'], npm: true },
};

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function importsOf(source) {
  return [...source.matchAll(IMPORT)].map((match) => match[1] ?? match[2]);
}

/** `file` is a repository-relative path; returns a list of human-readable violations. */
export function violations(file, source) {
  const match = /^packages\/([^/]+)\/src\//.exec(file);
  if (!match) return [];
  const pkg = match[1];
  const rule = RULES[pkg];
  if (!rule) return [`${file}: packages/${pkg} has no dependency rule`];
  const problems = [];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith('.')) {
      // Tests may use the shared harness in test/support; production code stays inside its package.
      if (file.endsWith('.test.ts') && specifier.includes('/test/support/')) continue;
      const depth = file.split('/').length - 3; // folders below packages/<pkg>/src
      const ups = specifier.split('/').filter((part) => part === '..').length;
      if (ups > depth) problems.push(`${file}: relative import '${specifier}' leaves packages/${pkg}/src`);
      continue;
    }
    const ours = /^@ci\/([^/]+)/.exec(specifier);
    if (ours) {
      if (ours[1] !== pkg && !rule.allowed.includes(ours[1])) {
        problems.push(`${file}: packages/${pkg} must not import @ci/${ours[1]}`);
      }
      continue;
    }
    const isTest = file.endsWith('.test.ts');
    if (!rule.npm && !(isTest && (specifier === 'vitest' || specifier === 'fast-check'))) {
      problems.push(`${file}: packages/${pkg} must not import '${specifier}' (no runtime dependencies)`);
    }
  }
  return problems;
}
