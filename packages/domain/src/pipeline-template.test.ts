import { describe, expect, it } from 'vitest';
import { parsePipelineTemplateFields, pipelineTemplateShownTo } from './pipeline-template';

describe('parsePipelineTemplateFields', () => {
  it('keeps what is given, trimmed, and leaves out what is not', () => {
    expect(parsePipelineTemplateFields({ name: ' Deploy ', description: ' ', available: true })).toEqual({
      ok: true,
      value: { name: 'Deploy', description: null, available: true },
    });
    expect(parsePipelineTemplateFields({})).toEqual({ ok: true, value: {} });
  });

  it.each([
    [{ name: '' }, "Name can't be blank"],
    [{ name: 'x'.repeat(256) }, 'Name is too long (maximum is 255 characters)'],
    [{ description: 'x'.repeat(1001) }, 'Description is too long (maximum is 1000 characters)'],
  ])('refuses %j', (input, message) => {
    const result = parsePipelineTemplateFields(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(message);
  });
});

describe('pipelineTemplateShownTo', () => {
  it('shows admins every template, other members the available ones, and no one else any', () => {
    for (const available of [true, false]) {
      expect(pipelineTemplateShownTo('admin', { available })).toBe(true);
      expect(pipelineTemplateShownTo('member', { available })).toBe(available);
      expect(pipelineTemplateShownTo(null, { available })).toBe(false);
      expect(pipelineTemplateShownTo(undefined, { available })).toBe(false);
    }
  });
});
