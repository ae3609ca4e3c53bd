import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';
import { appRouter } from './router';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; description?: string }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { headers?: Json; content?: Record<string, { schema: Json }> }>;
  security?: Array<Record<string, string[]>>;
};

const document = JSON.parse(
  JSON.stringify(openApiDocument(appRouter, { baseUrl: 'http://localhost:3000/v2' })),
) as Json & {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);
const operation = (method: string, path: string) => {
  const found = document.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
};

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (!value || typeof value !== 'object') return [];
  const own = typeof (value as Json).$ref === 'string' ? [(value as Json).$ref as string] : [];
  return [...own, ...Object.values(value).flatMap(refsIn)];
}

const BUILD = '/organizations/{organization}/pipelines/{pipeline}/builds/{number}';
const LISTS = [
  ['GET', '/builds'],
  ['GET', '/organizations/{organization}/builds'],
  ['GET', '/organizations/{organization}/pipelines/{pipeline}/builds'],
] as const;
const BUILD_OPERATIONS = [
  ...LISTS.map(([method, path]) => [method, path, '200', 'list', 'read_builds'] as const),
  ['GET', BUILD, '200', 'one', 'read_builds'],
  ['POST', '/organizations/{organization}/pipelines/{pipeline}/builds', '201', 'one', 'write_builds'],
  ['PUT', `${BUILD}/cancel`, '200', 'one', 'write_builds'],
  ['PUT', `${BUILD}/rebuild`, '200', 'one', 'write_builds'],
] as const;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with one server at the given base URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'http://localhost:3000/v2' }]);
  });

  it('documents exactly the builds operations of the spec', () => {
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      BUILD_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort(),
    );
  });

  it.each(BUILD_OPERATIONS)('answers %s %s with %s and a Build', (method, path, status, shape) => {
    const { responses } = operation(method, path);
    const successes = Object.keys(responses).filter((code) => code.startsWith('2'));
    expect(successes).toEqual([status]);
    const schema = responses[status]?.content?.['application/json']?.schema;
    expect(schema).toEqual(
      shape === 'list'
        ? { type: 'array', items: { $ref: '#/components/schemas/Build' } }
        : { $ref: '#/components/schemas/Build' },
    );
  });

  it.each(BUILD_OPERATIONS)(
    'asks %s %s for a bearer token with the scope of the operation',
    (method, path, ...rest) => {
      const scope = rest[2];
      const { security } = operation(method, path);
      expect(security).toEqual([{ AccessToken: [scope] }]);
      expect(document.components.securitySchemes?.AccessToken).toMatchObject({
        type: 'http',
        scheme: 'bearer',
      });
    },
  );

  it('answers every error with the Error component', () => {
    for (const { operation: op } of operations) {
      const errors = Object.entries(op.responses).filter(([code]) => Number(code) >= 400);
      expect(errors.map(([code]) => code)).toEqual(
        expect.arrayContaining(['401', '403', '404', '422', '500']),
      );
      for (const [, response] of errors) {
        expect(response.content).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
      }
    }
    expect(document.components.schemas?.Error).toMatchObject({ required: ['message'] });
  });

  it('resolves every $ref to a component that exists', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
      expect(match, ref).not.toBeNull();
      expect(document.components[match![1]!]?.[match![2]!], ref).toBeDefined();
    }
  });

  it('keeps only the components it refers to, each under one name', () => {
    const referred = new Set(refsIn(document).map((ref) => ref.split('/').pop()));
    for (const name of Object.keys(document.components.schemas ?? {})) {
      expect(referred.has(name), name).toBe(true);
      expect(name).not.toMatch(/Output$|^error\./);
    }
  });

  it('declares each path parameter of a path template, and no other', () => {
    for (const { path, operation: op } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (op.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name)
        .sort();
      expect(declared, path).toEqual(inPath);
    }
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ operation: op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(LISTS)('documents the filters, the pagination and the Link header of %s %s', (method, path) => {
    const op = operation(method, path);
    const query = (op.parameters ?? []).filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining([
        'branch',
        'commit',
        'state',
        'created_from',
        'created_to',
        'finished_from',
        'creator',
        'include_retried_jobs',
        'meta_data',
        'page',
        'per_page',
      ]),
    );
    for (const parameter of query) expect(parameter.description, parameter.name).toBeTruthy();
    expect(op.responses['200']?.headers?.Link).toEqual({ $ref: '#/components/headers/Link' });
  });

  it('documents the Link header on list operations only', () => {
    const withLink = operations
      .filter(({ operation: op }) => Object.values(op.responses).some((response) => response.headers?.Link))
      .map(({ method, path }) => `${method} ${path}`);
    expect(withLink.sort()).toEqual(LISTS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it('documents the OAuth scope headers on every response', () => {
    for (const { operation: op } of operations) {
      for (const response of Object.values(op.responses)) {
        expect(response.headers).toMatchObject({
          'X-OAuth-Scopes': { $ref: '#/components/headers/X-OAuth-Scopes' },
          'X-Accepted-OAuth-Scopes': { $ref: '#/components/headers/X-Accepted-OAuth-Scopes' },
        });
      }
    }
  });

  it('documents the create body as CreateBuildRequest', () => {
    const op = operation('POST', '/organizations/{organization}/pipelines/{pipeline}/builds');
    expect(op.requestBody?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/CreateBuildRequest' } },
    });
    expect(document.components.schemas?.CreateBuildRequest).toMatchObject({ required: ['commit', 'branch'] });
  });

  it('documents the get-build query parameter include_retried_jobs', () => {
    const names = (operation('GET', BUILD).parameters ?? []).map((parameter) => parameter.name);
    expect(names).toContain('include_retried_jobs');
  });
});
