import { type DomainError, unprocessable } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { slugify } from './slug';
import { isStorableText } from './storable-text';

export const ECOSYSTEMS = [
  'alpine',
  'container',
  'debian',
  'files',
  'helm',
  'huggingface',
  'java',
  'javascript',
  'nuget',
  'python',
  'redhat',
  'ruby',
  'terraform',
] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

export const MAX_REGISTRY_NAME_LENGTH = 255;
export const MAX_REGISTRY_DESCRIPTION_LENGTH = 1000;

/** PostgreSQL refuses such text (storable-text.ts): a 422 of its own rather than a failed insert. */
const UNSTORABLE = "can't contain NUL characters or unpaired surrogates";

export function isEcosystem(s: string): s is Ecosystem {
  return (ECOSYSTEMS as readonly string[]).includes(s);
}

/** A registry request body, straight from JSON. */
export interface RegistryInput {
  name?: unknown;
  ecosystem?: unknown;
  description?: unknown;
}

export interface NewRegistry {
  name: string;
  slug: string;
  ecosystem: Ecosystem;
  description: string | null;
}

/** The fields an update sets; the ecosystem is fixed at creation, so an update ignores it. */
export interface RegistryChanges {
  name?: string;
  slug?: string;
  description?: string | null;
}

/**
 * Checks a create or update body. Every reason is reported at once, in the Rails form the public
 * API uses: `Validation failed: Name can't be blank, Ecosystem can't be blank`. A body that is not a JSON
 * object has none of the fields.
 */
export function validateRegistryInput(body: unknown, options: { creating: true }): Result<NewRegistry>;
export function validateRegistryInput(body: unknown, options: { creating: false }): Result<RegistryChanges>;
export function validateRegistryInput(
  body: unknown,
  { creating }: { creating: boolean },
): Result<NewRegistry | RegistryChanges> {
  const input: RegistryInput = isJsonObject(body) ? body : {};
  if (creating) {
    const name = readName(input.name);
    const ecosystem = readEcosystem(input.ecosystem);
    const description = readDescription(input.description ?? null);
    if (!name.ok || !ecosystem.ok || !description.ok) {
      return err(invalidRegistry(failures(name, ecosystem, description)));
    }
    return ok({
      name: name.value,
      slug: slugify(name.value),
      ecosystem: ecosystem.value,
      description: description.value,
    });
  }
  const name = input.name === undefined ? ok(undefined) : readName(input.name);
  const description = input.description === undefined ? ok(undefined) : readDescription(input.description);
  if (!name.ok || !description.ok) return err(invalidRegistry(failures(name, description)));
  return ok({
    ...(name.value !== undefined && { name: name.value, slug: slugify(name.value) }),
    ...(description.value !== undefined && { description: description.value }),
  });
}

/** Slugs are unique per organization; the caller knows when one is taken. */
export function registryNameTaken(): DomainError {
  return invalidRegistry(['Name has already been taken']);
}

function readName(value: unknown): Result<string, string> {
  const name = typeof value === 'string' ? value.trim() : value;
  if (name === undefined || name === null || name === '') return err("Name can't be blank");
  if (typeof name !== 'string') return err('Name is invalid');
  if (!isStorableText(name)) return err(`Name ${UNSTORABLE}`);
  if (name.length > MAX_REGISTRY_NAME_LENGTH) {
    return err(`Name is too long (maximum is ${MAX_REGISTRY_NAME_LENGTH} characters)`);
  }
  // The slug is the registry's address, so a name must leave something to address it by.
  if (slugify(name) === '') return err('Name must contain at least one letter or digit');
  return ok(name);
}

function readEcosystem(value: unknown): Result<Ecosystem, string> {
  if (value === undefined || value === null || value === '') return err("Ecosystem can't be blank");
  if (typeof value !== 'string' || !isEcosystem(value)) return err('Ecosystem is not included in the list');
  return ok(value);
}

function readDescription(value: unknown): Result<string | null, string> {
  if (value === null) return ok(null);
  if (typeof value !== 'string') return err('Description is invalid');
  if (!isStorableText(value)) return err(`Description ${UNSTORABLE}`);
  if (value.length > MAX_REGISTRY_DESCRIPTION_LENGTH) {
    return err(`Description is too long (maximum is ${MAX_REGISTRY_DESCRIPTION_LENGTH} characters)`);
  }
  return ok(value);
}

function failures(...results: Result<unknown, string>[]): string[] {
  return results.flatMap((result) => (result.ok ? [] : [result.error]));
}

function invalidRegistry(reasons: readonly string[]): DomainError {
  return unprocessable('invalid_registry', `Validation failed: ${reasons.join(', ')}`);
}
