import { describe, expect, it } from 'vitest';
import {
  ECOSYSTEMS,
  isEcosystem,
  type RegistryInput,
  registryNameTaken,
  validateRegistryInput,
} from './registry';

describe('isEcosystem', () => {
  it.each([
    ['ruby', true],
    ['huggingface', true],
    ['terraform', true],
    ['npm', false],
    ['Ruby', false],
    ['', false],
  ])('says %j is an ecosystem: %s', (s, expected) => {
    expect(isEcosystem(s)).toBe(expected);
  });

  it('lists the thirteen agreed ecosystems', () => {
    expect(ECOSYSTEMS).toHaveLength(13);
  });
});

describe('validateRegistryInput when creating', () => {
  it('derives the slug from the name and defaults the description to null', () => {
    expect(validateRegistryInput({ name: 'my registry', ecosystem: 'ruby' }, { creating: true })).toEqual({
      ok: true,
      value: { name: 'my registry', slug: 'my-registry', ecosystem: 'ruby', description: null },
    });
  });

  it('keeps the description and trims the name', () => {
    const result = validateRegistryInput(
      { name: '  Gems  ', ecosystem: 'ruby', description: 'registry containing ruby gems' },
      { creating: true },
    );
    expect(result).toEqual({
      ok: true,
      value: { name: 'Gems', slug: 'gems', ecosystem: 'ruby', description: 'registry containing ruby gems' },
    });
  });

  it.each<[string, RegistryInput, string]>([
    ['no name', { ecosystem: 'ruby' }, "Validation failed: Name can't be blank"],
    ['a null name', { name: null, ecosystem: 'ruby' }, "Validation failed: Name can't be blank"],
    ['a blank name', { name: '   ', ecosystem: 'ruby' }, "Validation failed: Name can't be blank"],
    ['a numeric name', { name: 42, ecosystem: 'ruby' }, 'Validation failed: Name is invalid'],
    [
      'a name without letters or digits',
      { name: '***', ecosystem: 'ruby' },
      'Validation failed: Name must contain at least one letter or digit',
    ],
    [
      'a name of 256 characters',
      { name: 'a'.repeat(256), ecosystem: 'ruby' },
      'Validation failed: Name is too long (maximum is 255 characters)',
    ],
    ['no ecosystem', { name: 'gems' }, "Validation failed: Ecosystem can't be blank"],
    ['an empty ecosystem', { name: 'gems', ecosystem: '' }, "Validation failed: Ecosystem can't be blank"],
    [
      'an unknown ecosystem',
      { name: 'gems', ecosystem: 'npm' },
      'Validation failed: Ecosystem is not included in the list',
    ],
    [
      'a non-string ecosystem',
      { name: 'gems', ecosystem: ['ruby'] },
      'Validation failed: Ecosystem is not included in the list',
    ],
    [
      'a description of 1001 characters',
      { name: 'gems', ecosystem: 'ruby', description: 'd'.repeat(1001) },
      'Validation failed: Description is too long (maximum is 1000 characters)',
    ],
    [
      'a non-string description',
      { name: 'gems', ecosystem: 'ruby', description: 7 },
      'Validation failed: Description is invalid',
    ],
    [
      'a name with a NUL character',
      { name: 'ge\u0000ms', ecosystem: 'ruby' },
      "Validation failed: Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a name with an unpaired surrogate',
      { name: 'gems \ud800', ecosystem: 'ruby' },
      "Validation failed: Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a description with a NUL character',
      { name: 'gems', ecosystem: 'ruby', description: 'a\u0000b' },
      "Validation failed: Description can't contain NUL characters or unpaired surrogates",
    ],
    ['nothing at all', {}, "Validation failed: Name can't be blank, Ecosystem can't be blank"],
  ])('refuses %s with "%s"', (_case, input, message) => {
    const result = validateRegistryInput(input, { creating: true });
    expect(
      !result.ok && { kind: result.error.kind, code: result.error.code, message: result.error.message },
    ).toEqual({
      kind: 'unprocessable',
      code: 'invalid_registry',
      message,
    });
  });

  it('accepts a name of exactly 255 characters and a description of exactly 1000', () => {
    const result = validateRegistryInput(
      { name: 'a'.repeat(255), ecosystem: 'java', description: 'd'.repeat(1000) },
      { creating: true },
    );
    expect(result.ok).toBe(true);
  });

  it('keeps names and descriptions outside the Basic Multilingual Plane', () => {
    const result = validateRegistryInput(
      { name: 'gems 💎', ecosystem: 'ruby', description: 'shiny 💎' },
      { creating: true },
    );
    expect(result).toEqual({
      ok: true,
      value: { name: 'gems 💎', slug: 'gems', ecosystem: 'ruby', description: 'shiny 💎' },
    });
  });

  it('accepts every agreed ecosystem', () => {
    for (const ecosystem of ECOSYSTEMS) {
      expect(validateRegistryInput({ name: 'r', ecosystem }, { creating: true }).ok).toBe(true);
    }
  });
});

describe('validateRegistryInput when updating', () => {
  it.each<[string, RegistryInput, object]>([
    ['an empty body', {}, {}],
    ['a new name', { name: 'New Name' }, { name: 'New Name', slug: 'new-name' }],
    ['a new description', { description: 'about' }, { description: 'about' }],
    ['a cleared description', { description: null }, { description: null }],
    ['an ecosystem, which is fixed at creation', { ecosystem: 'python' }, {}],
    ['an invalid ecosystem, which is ignored', { ecosystem: 'npm' }, {}],
  ])('accepts %s', (_case, input, changes) => {
    expect(validateRegistryInput(input, { creating: false })).toEqual({ ok: true, value: changes });
  });

  it.each<[string, RegistryInput, string]>([
    ['a null name', { name: null }, "Validation failed: Name can't be blank"],
    ['a blank name', { name: '' }, "Validation failed: Name can't be blank"],
    [
      'a name without letters or digits',
      { name: '!!' },
      'Validation failed: Name must contain at least one letter or digit',
    ],
    [
      'a name with a NUL character',
      { name: '\u0000' },
      "Validation failed: Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a description with an unpaired surrogate',
      { description: '\udc00' },
      "Validation failed: Description can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a bad name and description',
      { name: 'x'.repeat(300), description: 'd'.repeat(1001) },
      'Validation failed: Name is too long (maximum is 255 characters), Description is too long (maximum is 1000 characters)',
    ],
  ])('refuses %s with "%s"', (_case, input, message) => {
    const result = validateRegistryInput(input, { creating: false });
    expect(!result.ok && result.error.message).toBe(message);
  });
});

describe('registryNameTaken', () => {
  it('says the name is taken in the Rails form', () => {
    const error = registryNameTaken();
    expect({ kind: error.kind, code: error.code, message: error.message }).toEqual({
      kind: 'unprocessable',
      code: 'invalid_registry',
      message: 'Validation failed: Name has already been taken',
    });
  });
});
