import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { violations } from './dependency-rules.mjs';

const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'packages', 'apps/web/src'],
  {
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((file) => file.endsWith('.ts') || file.endsWith('.tsx'));
const problems = files.flatMap((file) => violations(file, readFileSync(file, 'utf8')));
if (problems.length) {
  console.error(`Dependency direction violated:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Dependency direction: ${files.length} files checked, arrows point inward.`);
