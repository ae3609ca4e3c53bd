import { describe, expect, it } from 'vitest';
import { agentTokenText } from './agent-token';

describe('agentTokenText', () => {
  it('keeps a description trimmed and makes a blank one none', () => {
    expect(agentTokenText('Description', '  ci  ')).toEqual({ ok: true, value: 'ci' });
    expect(agentTokenText('Description', '   ')).toEqual({ ok: true, value: null });
    expect(agentTokenText('Description', undefined)).toEqual({ ok: true, value: null });
  });

  it.each([
    ['Reason', '', "Reason can't be blank"],
    ['Reason', 'x'.repeat(256), 'Reason is too long (maximum is 255 characters)'],
    ['Description', 'a\u0000b', "Description can't contain NUL characters or unpaired surrogates"],
  ] as const)('refuses a %s of %j', (field, value, message) => {
    const result = agentTokenText(field, value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(message);
  });
});
