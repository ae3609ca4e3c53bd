import type { ParsedCommand } from './arguments';

/** A mistake in the command line: printed with the usage, exit status 2. */
export class UsageError extends Error {}

export function required(options: ParsedCommand['options'], name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || !value.trim()) throw new UsageError(`--${name} is required`);
  return value;
}

export function optional(options: ParsedCommand['options'], name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}
