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

const TYPE_IMPORT_OF_OURS = /(?:^|\n)\s*import\s+type\s[^'"]*?from\s*['"](@ci\/[^'"]+)['"]/g;

/**
 * The browser's app (apps/web) runs none of our server code: it may take the router's types from
 * `@ci/trpc` (`import type`, erased from the bundle) and nothing else of ours, nor a relative path out of it.
 */
function webViolations(file, source) {
  const typeOnly = new Set([...source.matchAll(TYPE_IMPORT_OF_OURS)].map((match) => match[1]));
  const problems = [];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith('.')) {
      const depth = file.split('/').length - 4; // folders below apps/web/src
      const ups = specifier.split('/').filter((part) => part === '..').length;
      if (ups > depth) problems.push(`${file}: relative import '${specifier}' leaves apps/web/src`);
      continue;
    }
    if (!specifier.startsWith('@ci/')) continue;
    if (specifier !== '@ci/trpc' || !typeOnly.has(specifier)) {
      problems.push(`${file}: apps/web may only import types from @ci/trpc, not '${specifier}' at run time`);
    }
  }
  return problems;
}

/** `file` is a repository-relative path; returns a list of human-readable violations. */
export function violations(file, source) {
  if (file.startsWith('apps/web/src/')) return webViolations(file, source);
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
