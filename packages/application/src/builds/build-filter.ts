import { badRequest, isStorableText, UNSTORABLE_TEXT } from '@ci/domain';
import type { BuildFilter } from '../ports';

/**
 * Refuses (400, naming the filter) the texts no stored build can hold: PostgreSQL refuses NUL characters
 * and unpaired surrogates even as query parameters, so on any transport they are a malformed filter.
 */
export function requireStorableFilter(filter: BuildFilter): void {
  storable('branch', filter.branches ?? []);
  storable('commit', filter.commits ?? []);
  storable('meta_data', Object.entries(filter.metaData ?? {}).flat());
}

function storable(name: string, texts: readonly string[]): void {
  if (!texts.every(isStorableText)) {
    throw badRequest('invalid_parameter', `${name} ${UNSTORABLE_TEXT}`);
  }
}
