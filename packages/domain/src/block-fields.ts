import { checkMetaDataKey, checkMetaDataValue } from './build-meta-data';
import type { BlockField } from './entities';
import { type FieldError, validationFailed } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';

/** A block step may ask for this many fields at most: each becomes a meta-data key. */
export const MAX_BLOCK_FIELDS = 50;

/**
 * Reads a block step's `fields` (the public format): `text: <label>` or `select: <label>` with a `key`,
 * and `hint`, `required` (true unless said), `default`, and for a select `options` of `{label, value}` and
 * `multiple`. A select's default must be among its options. Problems are added to `problems`.
 */
export function readBlockFields(value: unknown, problems: string[]): BlockField[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push('fields must be a list');
    return [];
  }
  if (value.length > MAX_BLOCK_FIELDS) problems.push(`fields may hold at most ${MAX_BLOCK_FIELDS} fields`);
  const fields: BlockField[] = [];
  const keys = new Set<string>();
  value.forEach((raw, index) => {
    const field = readBlockField(raw, `field ${index + 1}`, problems);
    if (!field) return;
    if (keys.has(field.key)) problems.push(`field ${index + 1}: key "${field.key}" is already used`);
    keys.add(field.key);
    fields.push(field);
  });
  return fields;
}

function readBlockField(raw: unknown, name: string, problems: string[]): BlockField | null {
  if (!isJsonObject(raw) || (!('text' in raw) && !('select' in raw))) {
    problems.push(`${name}: expected a text or select field`);
    return null;
  }
  const type = 'select' in raw ? 'select' : 'text';
  const label = raw[type];
  const before = problems.length;
  if (typeof label !== 'string' || label.trim() === '') problems.push(`${name}: ${type} must be a label`);
  const key = checkMetaDataKey(raw.key);
  if (!key.ok) problems.push(`${name}: key must be a non-empty string of at most 255 characters`);
  const hint = raw.hint ?? null;
  if (hint !== null && typeof hint !== 'string') problems.push(`${name}: hint must be a string`);
  const required = raw.required ?? true;
  if (typeof required !== 'boolean') problems.push(`${name}: required must be true or false`);
  const multiple = type === 'select' ? (raw.multiple ?? false) : false;
  if (typeof multiple !== 'boolean') problems.push(`${name}: multiple must be true or false`);
  const options = type === 'select' ? readOptions(raw.options, name, problems) : [];
  const fallback = readDefault(raw.default, name, problems, { type, multiple: multiple === true, options });
  if (problems.length > before || !key.ok) return null;
  return {
    type,
    key: key.value,
    label: label as string,
    hint: hint as string | null,
    required: required as boolean,
    default: fallback,
    options,
    multiple: multiple as boolean,
  };
}

function readOptions(value: unknown, name: string, problems: string[]): BlockField['options'] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push(`${name}: options must be a non-empty list`);
    return [];
  }
  const options: BlockField['options'] = [];
  for (const option of value) {
    const label = isJsonObject(option) ? option.label : undefined;
    const choice = isJsonObject(option) ? option.value : undefined;
    if (typeof label !== 'string' || typeof choice !== 'string' || choice === '') {
      problems.push(`${name}: each option must have a label and a non-empty value`);
      return [];
    }
    options.push({ label, value: choice });
  }
  return options;
}

function readDefault(
  value: unknown,
  name: string,
  problems: string[],
  field: Pick<BlockField, 'type' | 'multiple' | 'options'>,
): BlockField['default'] {
  if (value === undefined || value === null) return null;
  if (field.type === 'text') {
    if (typeof value === 'string') return value;
    problems.push(`${name}: default must be a string`);
    return null;
  }
  const chosen = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(chosen) || !chosen.every((item) => typeof item === 'string')) {
    problems.push(`${name}: default must be an option's value or a list of them`);
    return null;
  }
  if (!field.multiple && chosen.length > 1)
    problems.push(`${name}: default may be a list only when multiple`);
  const unknown = chosen.find((item) => !field.options.some((option) => option.value === item));
  if (unknown !== undefined) problems.push(`${name}: default "${unknown}" is not one of its options`);
  return field.multiple ? chosen : (chosen[0] ?? null);
}

/**
 * The meta-data an unblock writes: each field's value as given (a multiple select's values one a line),
 * else its default; a required field without either, or a choice not among a select's options, is
 * refused (422, one error a field). Values of keys the step does not ask for are ignored.
 */
export function unblockMetaData(
  fields: readonly BlockField[],
  values: Readonly<Record<string, string>> | undefined,
): Result<Record<string, string>> {
  const metaData: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const field of fields) {
    const given = values && Object.hasOwn(values, field.key) ? values[field.key] : undefined;
    const fallback = Array.isArray(field.default) ? field.default.join('\n') : field.default;
    const value = given !== undefined && given.trim() !== '' ? given : (fallback ?? '');
    if (value.trim() === '') {
      if (field.required) {
        errors.push({ field: field.key, code: 'missing', message: `${field.label} is required` });
      }
      continue;
    }
    if (field.type === 'select') {
      const chosen = field.multiple ? value.split('\n') : [value];
      const unknown = chosen.find((item) => !field.options.some((option) => option.value === item));
      if (unknown !== undefined) {
        errors.push({
          field: field.key,
          code: 'invalid',
          message: `${field.label}: "${unknown}" is not one of its options`,
        });
        continue;
      }
    }
    const checked = checkMetaDataValue(value);
    if (!checked.ok) {
      errors.push({ field: field.key, code: 'invalid', message: `${field.label}: ${checked.error.message}` });
      continue;
    }
    metaData[field.key] = checked.value;
  }
  return errors.length > 0 ? err(validationFailed(errors)) : ok(metaData);
}
