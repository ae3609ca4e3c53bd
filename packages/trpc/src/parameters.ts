import { z } from 'zod';
import { documentedAs } from './documented';

/**
 * Parameters several routers share, described once for the OpenAPI document. Query parameters arrive
 * as text on REST (query-input.ts) and typed over tRPC, so each accepts both and converts.
 */

export const organizationSlug = z.string().meta({ description: 'organization slug' });

/**
 * Refuses a query parameter's value with a message naming the parameter: the whole message of the 400
 * (a `custom` issue; http-errors.ts). zod's own issues, a value of the wrong type over tRPC, keep zod's words.
 */
export function refuse(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

const PAGE_SIZE = { default: 30, max: 100 } as const;

/**
 * Digits only (`1e3`, `0x10`, `-1`, `1.5` refused); 0, empty or absent: `fallback`; at most `max`. Past
 * nine digits a small `max` (per_page's 100) is still the answer; a page that far is refused.
 */
function pageNumber(name: string, fallback: number, max: number) {
  return z
    .union([z.number(), z.string()])
    .optional()
    .transform((value, ctx) => {
      const text = value === undefined ? '' : String(value);
      if (text === '' || text === '0') return fallback;
      if (!/^\d+$/.test(text) || (text.length > 9 && max >= 1e9)) {
        return refuse(ctx, `${name} must be a positive integer`);
      }
      if (Number(text) === 0) return fallback;
      return Math.min(Number(text), max);
    });
}

/**
 * `page` and `per_page` of every list (decisions.md, "Lists and pagination"): page from 1, 0, empty or
 * absent meaning 1; per_page 30 by default, larger values clamped to 100; else a 400.
 */
export const pageParameters = {
  page: pageNumber('page', 1, Number.MAX_SAFE_INTEGER).meta({
    description: 'page number, from 1',
    ...documentedAs({ type: 'integer' }),
  }),
  per_page: pageNumber('per_page', PAGE_SIZE.default, PAGE_SIZE.max).meta({
    description: 'page size, default 30, at most 100',
    ...documentedAs({ type: 'integer' }),
  }),
};

/** A parameter clients may give several times (`key[]=`, `key[0]=`, repeated): its non-empty values. */
export const several = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => (value === undefined ? [] : [value].flat()).filter((item) => item !== ''))
    .meta({ description: `${description}; several as \`key[]=\`, \`key[0]=\` or repeated keys` });

/** A switch: on for `true` or `1` (or `true` over tRPC), off for anything else. */
export const flag = (description: string) =>
  z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((value) => value === true || value === 'true' || value === '1')
    .meta({ description, ...documentedAs({ type: 'boolean' }) });

/**
 * A procedure's input of path parameters `key` and a request body: the domain validates bodies (422
 * `Validation failed: …`), so the run-time input passes them through untouched; its type is the request's.
 */
export const bodyOf = <Key extends object, Body>(key: z.ZodObject) =>
  z.looseObject(key.shape) as unknown as z.ZodType<Key & Body>;
