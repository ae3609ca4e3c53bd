import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { BuildWire, CreateBuildRequest } from './builds/build.wire';
import { ErrorWire } from './error.wire';
import type { Meta } from './trpc';

/** Components the documented (not re-validated) inputs and outputs refer to. */
const COMPONENTS = { Build: BuildWire, CreateBuildRequest, Error: ErrorWire };

type Operation = {
  operationId: string;
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
type Document = ReturnType<typeof generateOpenApiDocument>;

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Malformed parameters or JSON',
  '401': 'Missing, unknown, expired or revoked token',
  '403': "The token lacks the operation's scope, or the user's access does not allow it",
  '404': 'No such organization, pipeline or build, or not visible to the user',
  '422': 'The request cannot be carried out',
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The OpenAPI document of the REST API, generated from the router and adjusted to what the server
 * really answers: each operation's success status, `{message}` error bodies, and the documented bodies
 * of inputs that the domain validates.
 */
export function openApiDocument(router: AnyRouter, options: { baseUrl: string }): Document {
  const document = generateOpenApiDocument(router, {
    title: 'CI control API',
    version: '2',
    baseUrl: options.baseUrl,
    description:
      'Builds, team pipelines and package registries, on the wire format of the public REST API v2.',
    defs: COMPONENTS,
  });
  const metaByOperationId = new Map<string, Meta>();
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta } }>;
  for (const [path, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    if (meta?.openapi) metaByOperationId.set(meta.openapi.operationId ?? path.replace(/\./g, '-'), meta);
  }
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, Operation>)) {
      const meta = metaByOperationId.get(operation.operationId);
      const success = operation.responses['200'];
      const responses: Record<string, unknown> = {};
      const status = String(meta?.successStatus ?? 200);
      responses[status] =
        status === '204' ? { description: 'No Content' } : { ...(success as object), description: 'OK' };
      for (const [code, description] of Object.entries(ERROR_STATUSES)) {
        responses[code] = errorResponse(description);
      }
      responses['500'] = errorResponse('Unexpected failure, logged with the request id');
      operation.responses = responses;
      if (meta?.requestBody) {
        operation.requestBody = {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${meta.requestBody}` } } },
        };
      }
    }
  }
  return document;
}
