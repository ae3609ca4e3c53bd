import { fstatSync, readFileSync } from 'node:fs';

/**
 * Whether something is piped or redirected into this command (a pipe or a file, not a terminal and not
 * `/dev/null`, which a job's commands get when nothing is given them).
 */
export function stdinHasInput(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile() || stat.isSocket();
  } catch {
    return false;
  }
}

export function readStdin(): string {
  return readFileSync(0, 'utf8');
}
