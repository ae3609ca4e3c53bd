import { Readable } from 'node:stream';
import type { FoundArtifact, UseCases } from '@ci/application';
import {
  type Artifact,
  type ArtifactDeclaration,
  badRequest,
  formatTimestamp,
  isArtifactState,
  MAX_ARTIFACT_BATCH,
} from '@ci/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { replyWithError } from '../http-errors';
import type { PublicUrls } from '../trpc';
import { type Body, jsonBody } from './agent-api';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

function itemsOf(body: Body): Body[] {
  const items = body.artifacts;
  if (!Array.isArray(items) || items.length > MAX_ARTIFACT_BATCH) {
    throw badRequest(
      'invalid_artifacts',
      `artifacts must be a list of at most ${MAX_ARTIFACT_BATCH} objects`,
    );
  }
  if (items.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))) {
    throw badRequest('invalid_artifacts', 'artifacts must be a list of objects');
  }
  return items as Body[];
}

/** A declaration as the public agent sends it (`path`, `file_size`, `sha1sum`, `sha256sum`, …). */
function declarationOf(item: Body): ArtifactDeclaration {
  const path = text(item.path);
  if (path === null) throw badRequest('invalid_artifact_path', 'Each artifact needs a path');
  const size = typeof item.file_size === 'string' ? Number(item.file_size) : item.file_size;
  return {
    path,
    globPath: text(item.glob_path),
    originalPath: text(item.original_path) ?? text(item.absolute_path),
    mimeType: text(item.content_type) ?? text(item.mime_type),
    fileSize: typeof size === 'number' ? size : Number.NaN,
    sha1sum: text(item.sha1sum) ?? '',
    sha256sum: text(item.sha256sum),
  };
}

function artifactWire(artifact: Artifact | FoundArtifact) {
  return {
    id: artifact.id,
    job_id: artifact.jobId,
    path: artifact.path,
    glob_path: artifact.globPath,
    file_size: artifact.fileSize,
    sha1sum: artifact.sha1sum,
    sha256sum: artifact.sha256sum,
    content_type: artifact.mimeType,
    state: artifact.state,
    created_at: formatTimestamp(artifact.createdAt),
    ...('url' in artifact ? { url: artifact.url } : {}),
  };
}

const flag = (value: unknown) => value === 'true' || value === '1';

/**
 * The artifact calls of the agent protocol under `prefix` (`/v3`), shaped after the public agent API:
 * declare a batch (`POST /jobs/{id}/artifacts`), send each file's bytes (`PUT …/artifacts/{id}/data`, the
 * one address of the upload instructions), report states (`PUT /jobs/{id}/artifacts`), search a build
 * (`GET /builds/{id}/artifacts/search`). Downloads this server serves itself are `GET /artifacts/<key>`
 * with a signed query string and no token.
 */
export function registerArtifactApi(
  app: FastifyInstance,
  options: { prefix: `/${string}`; useCases: UseCases; urls: PublicUrls },
) {
  const agents = options.useCases.agents;
  const endpoint = `${options.urls.api}${options.prefix}`;
  const json = (reply: FastifyReply, result: unknown) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
  const params = (request: FastifyRequest) => request.params as Record<string, string>;

  app.register(
    async (scope) => {
      scope.setErrorHandler((error, request, reply) => replyWithError(request, reply, error));
      scope.removeAllContentTypeParsers();
      // The bytes of an upload stay a stream: the store counts, hashes and spools them as they come.
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

      scope.put('/jobs/:id/artifacts/:artifact/data', async (request, reply) => {
        const { id, artifact } = params(request);
        const body = (request.body as Readable | undefined) ?? Readable.from([]);
        const uploaded = await agents.uploadArtifact(request.headers.authorization, {
          jobId: id as string,
          artifactId: artifact as string,
          body,
        });
        return json(reply, artifactWire(uploaded));
      });
    },
    { prefix: options.prefix },
  );

  app.register(
    async (scope) => {
      scope.setErrorHandler((error, request, reply) => replyWithError(request, reply, error));
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

      scope.post('/jobs/:id/artifacts', async (request, reply) => {
        const jobId = params(request).id as string;
        const body = jsonBody(request);
        const artifacts = await agents.createArtifacts(
          request.headers.authorization,
          jobId,
          itemsOf(body).map(declarationOf),
        );
        return json(reply.code(201), {
          id: text(body.id),
          artifact_ids: artifacts.map((artifact) => artifact.id),
          artifacts: artifacts.map(artifactWire),
          // One upload address for every artifact of the batch: `${artifact:id}` names each.
          upload_instructions: {
            action: {
              url: `${endpoint}/jobs/${jobId}/artifacts`,
              method: 'PUT',
              // biome-ignore lint/suspicious/noTemplateCurlyInString: the public agent's placeholder
              path: '${artifact:id}/data',
              file_input: 'body',
            },
          },
        });
      });

      scope.put('/jobs/:id/artifacts', async (request, reply) => {
        const updates = itemsOf(jsonBody(request)).map((item) => ({
          id: text(item.id) ?? '',
          state: text(item.state) ?? '',
        }));
        await agents.updateArtifactStates(
          request.headers.authorization,
          params(request).id as string,
          updates,
        );
        return reply.code(204).send();
      });

      scope.get('/builds/:id/artifacts/search', async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const state = text(query.state);
        if (state !== null && !isArtifactState(state)) {
          throw badRequest('invalid_state', 'state must be new, finished or error');
        }
        const found = await agents.searchArtifacts(
          request.headers.authorization,
          params(request).id as string,
          {
            query: text(query.query),
            step: text(query.step),
            state: state !== null && isArtifactState(state) ? state : null,
            includeRetriedJobs: flag(query.include_retried_jobs),
          },
        );
        return json(reply, found.map(artifactWire));
      });

      scope.get('/artifacts/:build/:job/:artifact', async (request, reply) => {
        const { build, job, artifact } = params(request);
        const query = Object.fromEntries(
          Object.entries(request.query as Record<string, unknown>).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        );
        const opened = await agents.openSignedArtifact({ key: `${build}/${job}/${artifact}`, query });
        return reply
          .type(opened.mimeType)
          .header('Content-Length', String(opened.size))
          .header(
            'Content-Disposition',
            `attachment; filename*=UTF-8''${encodeURIComponent(opened.filename)}`,
          )
          .send(Readable.from(opened.body));
      });
    },
    { prefix: options.prefix },
  );
}
