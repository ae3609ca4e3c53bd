import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';

export type MatrixValue = string | number | boolean;

/**
 * A command step's `matrix`: a list (one dimension, `{{matrix}}`) or `setup` of named dimensions
 * (`{{matrix.name}}`), with `adjustments` that skip, soft-fail or add combinations.
 */
export interface Matrix {
  /** the dimensions by name; the list form is the one dimension named "" */
  setup: Record<string, MatrixValue[]>;
  adjustments: MatrixAdjustment[];
}

export interface MatrixAdjustment {
  with: Record<string, MatrixValue>;
  skip: boolean;
  softFail: boolean;
}

/** One job's place in its step's matrix: the value (list form) or the values by dimension. */
export type JobMatrix = MatrixValue | Record<string, MatrixValue>;

export interface MatrixCombination {
  values: Record<string, MatrixValue>;
  softFail: boolean;
}

/** The public format's bounds: a matrix is a handful of dimensions, not a job generator. */
export const MAX_MATRIX_DIMENSIONS = 6;
export const MAX_MATRIX_VALUES = 20;
export const MAX_MATRIX_ADJUSTMENTS = 12;

const isValue = (value: unknown): value is MatrixValue =>
  (typeof value === 'string' && value !== '') || typeof value === 'number' || typeof value === 'boolean';

function readValues(raw: unknown, what: string): Result<MatrixValue[], string> {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(isValue))
    return err(`${what} must be a non-empty list of strings, numbers or booleans`);
  if (raw.length > MAX_MATRIX_VALUES) return err(`${what} has more than ${MAX_MATRIX_VALUES} values`);
  return ok(raw);
}

/** Reads a step's `matrix`; the message says what is wrong. */
export function parseMatrix(raw: unknown): Result<Matrix, string> {
  if (Array.isArray(raw)) {
    const values = readValues(raw, 'matrix');
    return values.ok ? ok({ setup: { '': values.value }, adjustments: [] }) : values;
  }
  if (!isJsonObject(raw)) return err('matrix must be a list or { setup, adjustments }');
  const unknown = Object.keys(raw).filter((key) => key !== 'setup' && key !== 'adjustments');
  if (unknown.length) return err(`matrix has unknown keys: ${unknown.join(', ')}`);
  const setup: Record<string, MatrixValue[]> = {};
  if (Array.isArray(raw.setup)) {
    const values = readValues(raw.setup, 'matrix.setup');
    if (!values.ok) return values;
    setup[''] = values.value;
  } else if (isJsonObject(raw.setup)) {
    const names = Object.keys(raw.setup);
    if (names.length === 0) return err('matrix.setup must name at least one dimension');
    if (names.length > MAX_MATRIX_DIMENSIONS)
      return err(`matrix.setup has more than ${MAX_MATRIX_DIMENSIONS} dimensions`);
    for (const name of names) {
      if (!/^[A-Za-z0-9_-]+$/.test(name)) return err(`matrix dimension "${name}" is not a plain name`);
      const values = readValues(raw.setup[name], `matrix.setup.${name}`);
      if (!values.ok) return values;
      setup[name] = values.value;
    }
  } else {
    return err('matrix.setup must be a list or a map of dimensions');
  }
  const adjustments = readAdjustments(raw.adjustments, setup);
  return adjustments.ok ? ok({ setup, adjustments: adjustments.value }) : adjustments;
}

function readAdjustments(
  raw: unknown,
  setup: Record<string, MatrixValue[]>,
): Result<MatrixAdjustment[], string> {
  if (raw === undefined || raw === null) return ok([]);
  if (!Array.isArray(raw)) return err('matrix.adjustments must be a list');
  if (raw.length > MAX_MATRIX_ADJUSTMENTS)
    return err(`matrix.adjustments has more than ${MAX_MATRIX_ADJUSTMENTS} entries`);
  const names = Object.keys(setup);
  const adjustments: MatrixAdjustment[] = [];
  for (const [index, entry] of raw.entries()) {
    const where = `matrix.adjustments[${index}]`;
    if (!isJsonObject(entry)) return err(`${where} must be { with, skip?, soft_fail? }`);
    const single = names.length === 1 && names[0] === '';
    const given = single && isValue(entry.with) ? { '': entry.with } : entry.with;
    if (!isJsonObject(given) || !Object.values(given).every(isValue))
      return err(`${where}.with must give a value for each dimension`);
    const keys = Object.keys(given);
    if (keys.length !== names.length || !names.every((name) => keys.includes(name)))
      return err(`${where}.with must give exactly the dimensions ${names.join(', ') || 'of the list'}`);
    const skip = entry.skip ?? false;
    const softFail = entry.soft_fail ?? false;
    if (typeof skip !== 'boolean' && typeof skip !== 'string')
      return err(`${where}.skip must be true or a reason`);
    if (typeof softFail !== 'boolean') return err(`${where}.soft_fail must be true or false`);
    adjustments.push({ with: given as Record<string, MatrixValue>, skip: skip !== false, softFail });
  }
  return ok(adjustments);
}

/** How many combinations {@link matrixCombinations} gives, without making them (for the job limit). */
export function matrixSize(matrix: Matrix): number {
  const product = Object.values(matrix.setup).reduce((total, values) => total * values.length, 1);
  const added = matrix.adjustments.filter(
    (adjustment) => !adjustment.skip && !inSetup(matrix, adjustment.with),
  );
  const skipped = new Set(
    matrix.adjustments.filter((a) => a.skip && inSetup(matrix, a.with)).map((a) => keyOf(a.with)),
  );
  return product + added.length - skipped.size;
}

/** The combinations in order (the first dimension slowest), skipped ones left out, added ones last. */
export function matrixCombinations(matrix: Matrix): MatrixCombination[] {
  const names = Object.keys(matrix.setup);
  let combinations: Record<string, MatrixValue>[] = [{}];
  for (const name of names) {
    combinations = combinations.flatMap((partial) =>
      matrix.setup[name]!.map((value) => ({ ...partial, [name]: value })),
    );
  }
  const adjustment = new Map(matrix.adjustments.map((a) => [keyOf(a.with), a]));
  const result: MatrixCombination[] = [];
  for (const values of combinations) {
    const adjusted = adjustment.get(keyOf(values));
    if (adjusted?.skip) continue;
    result.push({ values, softFail: adjusted?.softFail ?? false });
  }
  for (const added of matrix.adjustments) {
    if (!added.skip && !inSetup(matrix, added.with))
      result.push({ values: added.with, softFail: added.softFail });
  }
  return result;
}

function inSetup(matrix: Matrix, values: Record<string, MatrixValue>): boolean {
  return Object.entries(values).every(([name, value]) => matrix.setup[name]?.includes(value) ?? false);
}

const keyOf = (values: Record<string, MatrixValue>) =>
  JSON.stringify(
    Object.keys(values)
      .sort()
      .map((name) => [name, values[name]]),
  );

/** What a job shows as its `matrix`: the value of the list form, the values by name otherwise. */
export function jobMatrix(values: Record<string, MatrixValue>): JobMatrix {
  return '' in values ? values['']! : values;
}

/**
 * `{{matrix}}` and `{{matrix.name}}` (spaces allowed inside the braces) replaced by the combination's
 * values; other `{{…}}` are left as written.
 */
export function interpolateMatrix(text: string, values: Record<string, MatrixValue>): string {
  return text.replace(/\{\{\s*matrix(?:\.([A-Za-z0-9_-]+))?\s*\}\}/g, (whole, name: string | undefined) => {
    const value = values[name ?? ''];
    return value === undefined ? whole : String(value);
  });
}
