import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * A bare repository on this machine (`file://`, never the network) that tests commit to: each commit
 * writes files on a branch of a working copy and pushes it; answers the commit's hash.
 */
export function localGitRepository() {
  const root = mkdtempSync(join(tmpdir(), 'ci-git-'));
  const bare = join(root, 'origin.git');
  const work = join(root, 'work');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(root, 'init', '--quiet', '--initial-branch=main', work);
  git(work, 'remote', 'add', 'origin', bare);

  return {
    url: `file://${bare}`,
    commit(files: Record<string, string>, branch = 'main'): string {
      const branches = git(work, 'branch', '--list', branch);
      if (git(work, 'symbolic-ref', '--short', 'HEAD') !== branch) {
        git(work, 'checkout', '--quiet', ...(branches ? [branch] : ['-b', branch]));
      }
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '-m', `change ${Object.keys(files).join(', ')}`);
      git(work, 'push', '--quiet', 'origin', branch);
      return git(work, 'rev-parse', 'HEAD');
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
