import { readDescription, readSluggedName, reasonsOf } from './body-fields';
import { type DomainError, unprocessable } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { slugify } from './slug';

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
    const name = readSluggedName(input.name, MAX_REGISTRY_NAME_LENGTH);
    const ecosystem = readEcosystem(input.ecosystem);
    const description = readDescription(input.description ?? null, MAX_REGISTRY_DESCRIPTION_LENGTH);
    if (!name.ok || !ecosystem.ok || !description.ok) {
      return err(invalidRegistry(reasonsOf(name, ecosystem, description)));
    }
    return ok({
      name: name.value,
      slug: slugify(name.value),
      ecosystem: ecosystem.value,
      description: description.value,
    });
  }
  const name =
    input.name === undefined ? ok(undefined) : readSluggedName(input.name, MAX_REGISTRY_NAME_LENGTH);
  const description =
    input.description === undefined
      ? ok(undefined)
      : readDescription(input.description, MAX_REGISTRY_DESCRIPTION_LENGTH);
  if (!name.ok || !description.ok) return err(invalidRegistry(reasonsOf(name, description)));
  return ok({
    ...(name.value !== undefined && { name: name.value, slug: slugify(name.value) }),
    ...(description.value !== undefined && { description: description.value }),
  });
}

/** Slugs are unique per organization; the caller knows when one is taken. */
export function registryNameTaken(): DomainError {
  return invalidRegistry(['Name has already been taken']);
}

function readEcosystem(value: unknown): Result<Ecosystem, string> {
  if (value === undefined || value === null || value === '') return err("Ecosystem can't be blank");
  if (typeof value !== 'string' || !isEcosystem(value)) return err('Ecosystem is not included in the list');
  return ok(value);
}

function invalidRegistry(reasons: readonly string[]): DomainError {
  return unprocessable('invalid_registry', `Validation failed: ${reasons.join(', ')}`);
}
