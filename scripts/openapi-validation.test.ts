import { appRouter, openApiDocument } from '@ci/trpc';
import { describe, expect, it } from 'vitest';
import { openApiProblems } from './openapi-validation';

type Json = Record<string, unknown>;

const generated = () =>
  openApiDocument(appRouter, { baseUrl: 'http://localhost:3000/v2' }) as unknown as Json;

/** The first object in `value` that `test` accepts, depth first. */
function find(value: unknown, test: (node: Json) => boolean): Json | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && test(value as Json)) return value as Json;
  for (const child of Object.values(value)) {
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

describe('openApiProblems', () => {
  // Two linters over the whole document: seconds on a loaded machine, more with every operation.
  it('finds no error in the generated REST API document', { timeout: 30_000 }, async () => {
    expect((await openApiProblems(generated())).errors).toEqual([]);
  });

  it('reports a discriminator mapping to a schema the document does not define', async () => {
    const document = generated();
    const discriminator = find(
      document,
      (node) => typeof node.mapping === 'object' && 'propertyName' in node,
    );
    expect(discriminator).toBeDefined();
    const mapping = discriminator!.mapping as Record<string, string>;
    const [key] = Object.keys(mapping);
    mapping[key!] = '#/components/schemas/NoSuchStep';

    const { errors } = await openApiProblems(document);
    expect(errors).not.toEqual([]);
    for (const error of errors) {
      expect(error).toMatch(new RegExp(`^redocly no-unresolved-refs: .*/discriminator/mapping/${key}\\)$`));
    }
  });

  it('reports a reference to a missing schema through both validators', async () => {
    const document = generated();
    const reference = find(document, (node) => node.$ref === '#/components/schemas/Build');
    expect(reference).toBeDefined();
    reference!.$ref = '#/components/schemas/NoSuchBuild';

    const { errors } = await openApiProblems(document);
    expect(errors).toContainEqual(expect.stringMatching(/^redocly no-unresolved-refs: /));
    expect(errors).toContainEqual(expect.stringMatching(/^swagger-parser: .*NoSuchBuild/));
  });

  it('reports what breaks the OpenAPI schema through both validators', async () => {
    const document = generated();
    (document.info as Json).version = 2;

    const { errors } = await openApiProblems(document);
    expect(errors).toContainEqual(expect.stringMatching(/^redocly struct: /));
    expect(errors).toContainEqual(expect.stringMatching(/^swagger-parser: /));
  });
});
