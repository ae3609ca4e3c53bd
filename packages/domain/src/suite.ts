import { readSluggedName } from './body-fields';
import { type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';
import { slugify } from './slug';

/** A test suite (Test Engine): teams get access to it; its test runs are not kept here. */
export interface Suite {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  defaultBranch: string | null;
  applicationName: string | null;
  emoji: string | null;
  color: string | null;
  createdAt: Date;
}

export const SUITE_ACCESS_LEVELS = ['manage_and_read', 'read_only'] as const;
export type SuiteAccessLevel = (typeof SUITE_ACCESS_LEVELS)[number];

/** A team's access to a suite. */
export interface TeamSuite {
  id: string;
  teamId: string;
  suiteId: string;
  accessLevel: SuiteAccessLevel;
  creatorId: string | null;
  createdAt: Date;
}

export function isSuiteAccessLevel(value: string): value is SuiteAccessLevel {
  return (SUITE_ACCESS_LEVELS as readonly string[]).includes(value);
}

export function parseSuiteName(name: string): Result<{ name: string; slug: string }, DomainError> {
  const read = readSluggedName(name, 255);
  if (!read.ok) return err(unprocessable('invalid_suite', read.error));
  return ok({ name: read.value, slug: slugify(read.value) });
}

export function teamSuiteTaken(): DomainError {
  return unprocessable('team_suite_taken', 'This team already has access to this suite');
}
