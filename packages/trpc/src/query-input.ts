import type { z } from 'zod';

/**
 * How REST reads a query parameter, decided by the input schema's shape: `list`, every value of
 * `key=`, `key[]=` and `key[0]=` (a schema that takes an array); `map`, `key[name]=value` pairs (a
 * record); `single`, the first value, as text (anything else; zod checks and converts it).
 */
type QueryKind = 'list' | 'map' | 'single';

/** Each input key's kind; empty for an input that is not an object. */
export type QueryShape = ReadonlyMap<string, QueryKind>;

type Def = {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  shape?: Record<string, z.core.$ZodType>;
};

const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as Def;

function kindOf(schema: z.core.$ZodType): QueryKind {
  const def = defOf(schema);
  switch (def.type) {
    case 'array':
      return 'list';
    case 'record':
      return 'map';
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return def.innerType ? kindOf(def.innerType) : 'single';
    case 'pipe':
      return def.in ? kindOf(def.in) : 'single';
    case 'union': {
      const kinds = (def.options ?? []).map(kindOf);
      return kinds.find((kind) => kind !== 'single') ?? 'single';
    }
    default:
      return 'single';
  }
}

/** The query shape of a procedure's input schema (a zod object); computed once per procedure. */
export function queryShapeOf(input: unknown): QueryShape {
  const shape = new Map<string, QueryKind>();
  if (!input || typeof input !== 'object' || !('_zod' in input)) return shape;
  const def = defOf(input as z.core.$ZodType);
  if (def.type !== 'object' || !def.shape) return shape;
  for (const [key, schema] of Object.entries(def.shape)) shape.set(key, kindOf(schema));
  return shape;
}

/** `meta_data[name]` (brackets plain or percent-encoded): a record's entry, `name` taken whole. */
const ENTRY = /^([^[]+)\[(.+)\]$/;
/** `state[]` and `state[0]` are `state`. */
const ITEM = /\[\d*\]$/;

/**
 * The query string as the object a procedure's input schema parses, in every encoding clients send:
 * `state=a&state=b`, `state[]=a&state[]=b`, `state[0]=a&state[1]=b` (also percent-encoded) →
 * `state: ['a', 'b']`; `meta_data[k]=v` → `meta_data: {k: 'v'}`; a single value's first occurrence
 * as text. Keys the schema does not name are left out (unknown parameters are ignored).
 */
export function queryInput(query: URLSearchParams, shape: QueryShape): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (shape.size === 0) return input;
  const lists = new Map<string, string[]>();
  const maps = new Map<string, Record<string, string>>();
  for (const [key, value] of query) {
    const entry = ENTRY.exec(key);
    if (entry && shape.get(entry[1]!) === 'map') {
      const map = maps.get(entry[1]!) ?? {};
      map[entry[2]!] = value;
      maps.set(entry[1]!, map);
      continue;
    }
    const name = key.replace(ITEM, '');
    const kind = shape.get(name);
    const list = kind === 'list' ? lists.get(name) : undefined;
    if (list) list.push(value);
    else if (kind === 'list') lists.set(name, [value]);
    else if (kind === 'single' && !Object.hasOwn(input, name)) input[name] = value;
  }
  for (const [name, values] of lists) input[name] = values;
  for (const [name, map] of maps) input[name] = map;
  return input;
}
