import type { UseCases, WebhookOutcome } from '@ci/application';
import { badgeSvg, webAddresses } from '@ci/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiAddresses } from '../api-addresses';
import { replyWithError } from '../http-errors';
import { entityTag, matchesNoneMatch } from '../response-cache';
import type { PublicUrls } from '../trpc';

/** Headers as the use cases read them: lower-case names, one value each (the first of a repeated one). */
function headersOf(request: FastifyRequest): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = Array.isArray(value) ? value[0] : value;
  }
  return headers;
}

function outcomeWire(outcome: WebhookOutcome, urls: PublicUrls) {
  switch (outcome.kind) {
    case 'triggered':
      return { status: 201, body: { id: outcome.id } };
    case 'built':
      return {
        status: 201,
        body: {
          id: outcome.id,
          number: outcome.number,
          url: apiAddresses.build(urls.api, outcome.organizationSlug, outcome.pipelineSlug, outcome.number),
          web_url: webAddresses.build(
            urls.web,
            outcome.organizationSlug,
            outcome.pipelineSlug,
            outcome.number,
          ),
        },
      };
    case 'ignored':
      return { status: 200, body: { message: outcome.reason } };
  }
}

// Long enough that a README does not ask on every view, short enough that a new build shows soon.
const BADGE_MAX_AGE_SECONDS = 30;

/**
 * What arrives from outside without an API token: source hosts' and pipeline triggers' deliveries
 * (`POST /webhooks/deliver/<token>`, the body kept as text, since signatures are over its bytes) and
 * build badges (`GET /badges/<pipeline uuid>.svg?branch=`).
 */
export function registerInboundApi(app: FastifyInstance, options: { useCases: UseCases; urls: PublicUrls }) {
  const { useCases, urls } = options;
  const json = (reply: FastifyReply, status: number, body: unknown) =>
    reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));

  app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => replyWithError(request, reply, error));
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    scope.post('/webhooks/deliver/:token', async (request, reply) => {
      const outcome = await useCases.deliverWebhook({
        token: (request.params as { token: string }).token,
        headers: headersOf(request),
        body: typeof request.body === 'string' ? request.body : '',
      });
      const wire = outcomeWire(outcome, urls);
      return json(reply, wire.status, wire.body);
    });

    scope.get('/badges/:file', async (request, reply) => {
      const { file } = request.params as { file: string };
      const query = request.query as Record<string, unknown>;
      const branch = typeof query.branch === 'string' && query.branch !== '' ? query.branch : null;
      const authorization = request.headers.authorization;
      const badge = await useCases.getPipelineBadge({
        pipelineId: file.endsWith('.svg') ? file.slice(0, -'.svg'.length) : file,
        branch,
        authorization,
        clientAddress: request.ip,
      });
      const etag = entityTag(`${badge.status}:${badge.buildId ?? ''}`, request.url);
      // A badge seen with a token is that token holder's: no shared cache keeps it.
      reply
        .header('Cache-Control', `${authorization ? 'private' : 'public'}, max-age=${BADGE_MAX_AGE_SECONDS}`)
        .header('ETag', etag)
        .header('Vary', 'Authorization');
      if (matchesNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('image/svg+xml; charset=utf-8').send(badgeSvg(badge.status));
    });
  });
}
