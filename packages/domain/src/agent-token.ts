import { type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

export const MAX_AGENT_TOKEN_TEXT_LENGTH = 255;

/**
 * An agent token's description (optional) or revocation reason (required): text the database keeps, at
 * most 255 characters; blank descriptions are none.
 */
export function agentTokenText(
  field: 'Description' | 'Reason',
  value: string | null | undefined,
): Result<string | null, DomainError> {
  const text = value?.trim() ?? '';
  if (text === '') {
    return field === 'Reason' ? err(unprocessable('invalid_agent_token', "Reason can't be blank")) : ok(null);
  }
  if (!isStorableText(text)) return err(unprocessable('invalid_agent_token', `${field} ${UNSTORABLE_TEXT}`));
  if (text.length > MAX_AGENT_TOKEN_TEXT_LENGTH) {
    return err(
      unprocessable(
        'invalid_agent_token',
        `${field} is too long (maximum is ${MAX_AGENT_TOKEN_TEXT_LENGTH} characters)`,
      ),
    );
  }
  return ok(text);
}
