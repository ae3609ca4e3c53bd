import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  isStoreUnavailable,
  STORE_RETRY_AFTER_SECONDS,
  STORE_UNAVAILABLE_MESSAGE,
  storeOutage,
  type UseCases,
} from '@ci/application';
import type { GraphqlServer } from '@ci/graphql';
import {
  appRouter,
  logFailure,
  openApiDocument,
  ResponseCache,
  registerAgentApi,
  registerArtifactApi,
  registerInboundApi,
  registerRestApi,
  registerTrpcApi,
  replyWithError,
  responseValidator,
  type TrpcContext,
} from '@ci/trpc';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pLimit from 'p-limit';
import pMemoize from 'p-memoize';
import { isApiPath } from './api-path';
import type { ServerConfig } from './config';
import { applyCors, registerCors } from './cors';
import { registerDocsPages } from './docs-pages';
import { serializeRequest } from './request-log';
import { registerWebApp, webSessionOf } from './web-app';

export interface AppDeps {
  config: ServerConfig;
  useCases: UseCases;
  /** Throws when the database cannot answer. */
  pingDatabase: () => Promise<void>;
  /** Runs a request's work in one unit of work of the database (its own EntityManager fork). */
  requestContext: (next: () => void) => void;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

const OVERLOADED = 'Service Unavailable: the server is overloaded, try again shortly';
const SHUTTING_DOWN = 'Service Unavailable: the server is shutting down, try again shortly';

/** What Node refuses before any request exists (Fastify's `clientErrorHandler`): status and message. */
function clientErrorAnswer(error: { code?: string }): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'Request Header Fields Too Large: send a shorter URL or fewer, shorter headers'];
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'Request Timeout: the request took too long to arrive'];
  return [400, 'Bad Request: the request is not well-formed HTTP'];
}

/**
 * Answers what Node's parser refused (a 431, a 408, malformed HTTP) with `{message}` like every other
 * error, saying `Connection: close` since the connection ends with it: a keep-alive client then opens
 * a new one for its next request instead of failing on this one.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer (Node's own rule).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorAnswer(error);
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // What the client does not read within a second is not waited for.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * under-pressure sends what its handler returns, and serves the request when it returns nothing (its
 * README); its types say `void`, which a function returning a value satisfies.
 */
type PressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string, value?: number) => void;

/**
 * An API request turned away before any work: 503 `{message}` with `Retry-After`, so an overload costs
 * clients a retry, not every request's latency. Health checks, pages and agents are still served
 * (undefined: serve it).
 */
function shed(config: ServerConfig) {
  return (request: FastifyRequest, reply: FastifyReply, type: string, value?: number) => {
    if (!isApiPath(request.url)) return undefined;
    request.log.warn({ pressure: type, value }, 'request shed under pressure');
    reply.code(503).header('Retry-After', String(config.pressure.retryAfterSeconds));
    return { message: OVERLOADED };
  };
}

/** Past a threshold of event-loop delay or memory (@fastify/under-pressure), API requests are {@link shed}. */
function loadShedding(config: ServerConfig): FastifyUnderPressureOptions {
  const { pressure } = config;
  const pressureHandler: PressureHandler = shed(config);
  return {
    maxEventLoopDelay: pressure.maxEventLoopDelayMs,
    maxEventLoopUtilization: pressure.maxEventLoopUtilization,
    // Each sample's own utilization, not the average since start-up.
    eventLoopUtilizationMode: 'interval',
    maxHeapUsedBytes: pressure.maxHeapUsedBytes,
    maxRssBytes: pressure.maxRssBytes,
    pressureHandler,
  };
}

/** The HTTP server: the one place where transports meet configuration. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { timeouts } = deps.config;
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      // Requests are logged by method and URL only: never headers, and a token in the URL's query string
      // is replaced, so tokens stay out of the logs.
      redact: ['req.headers.authorization'],
      serializers: { req: serializeRequest },
    },
    bodyLimit: deps.config.bodyLimit,
    // A client that sends slowly, or not at all, loses its connection (408 while its request is incomplete)
    // instead of holding it. Node checks every `connectionsCheckingInterval` (30 s by default): here 1 s.
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.connectionMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      requestTimeout: timeouts.requestMs, // as well: Node checks headersTimeout against it at creation
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests that arrive while the server closes get our 503 (the onRequest hook below), not Fastify's.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    clientErrorHandler: answerClientError,
    // What the router refuses before any route or hook runs (a path that does not decode as UTF-8, a
    // parameter over the length limit) answers `{message}` like every other error, not Fastify's body.
    frameworkErrors: (error, request, reply) => {
      (reply as FastifyReply).header('X-Request-Id', request.id);
      applyCors(deps.config.corsOrigins, request, reply as FastifyReply);
      return replyWithError(request, reply as FastifyReply, error);
    },
  });

  // First, so that every later hook and the handler run in the request's unit of work.
  app.addHook('onRequest', (_request, _reply, done) => deps.requestContext(done));

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (closing) {
      // Fastify has set `Connection: close`; the client retries on another server or after the restart.
      return reply.code(503).header('Retry-After', '1').send({ message: SHUTTING_DOWN });
    }
  });

  await registerCors(app, deps.config.corsOrigins);
  // After the CORS hook, so that a browser script can read the 503 and its Retry-After.
  await app.register(underPressure, loadShedding(deps.config));
  // API calls worked on at once (ADR 0028): the others wait before they hold rows or a connection. Each
  // place is given back when its call's promise settles, whatever becomes of the connection.
  const concurrency = pLimit(deps.config.requestConcurrency);
  // With every place taken and the queue full, API requests are shed as under pressure.
  const shedWhenFull = shed(deps.config);
  app.addHook('onRequest', async (request, reply) => {
    const { activeCount, pendingCount } = concurrency;
    if (activeCount < concurrency.concurrency || pendingCount < deps.config.requestQueueLimit) return;
    const refusal = shedWhenFull(request, reply, 'requestQueue', pendingCount);
    if (refusal) return reply.send(refusal);
  });

  app.setErrorHandler((error, request, reply) => replyWithError(request, reply, error));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // A HEAD is answered as its GET (its Content-Length too); its body is never sent.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    return reply.code(404).send({ message: `No route matches ${method} ${path}` });
  });

  // Clients send JSON with other Content-Types (text/plain too) or none at all, and body-less PUTs with a
  // JSON Content-Type: one parser for every type, blank is no body, the rest goes through Fastify's JSON
  // parser (prototype-poisoning checks included).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  const urls = deps.config.publicUrls;
  // REST's cache of pipelines' build lists (ADR 0016); none with RESPONSE_CACHE=off.
  const cache =
    deps.config.responseCacheBytes > 0 ? new ResponseCache(deps.config.responseCacheBytes) : undefined;
  // VALIDATE_RESPONSES: every REST and tRPC result is parsed by its procedure's response schema.
  const validateResponse = deps.config.validateResponses ? responseValidator(appRouter) : undefined;
  const createContext = (request: FastifyRequest, rest: boolean): TrpcContext => ({
    useCases: deps.useCases,
    urls,
    authorization: request.headers.authorization,
    session: rest ? null : webSessionOf(request),
    clientAddress: request.ip,
    rest: rest ? { target: request.originalUrl, body: request.body, accept: request.headers.accept } : null,
    response: { headers: {} },
    rateLimits: deps.config.rateLimits,
    validateResponse,
    concurrency,
  });

  // Made on the first request and kept as bytes: 1.5 MB that a server at rest need not hold in its heap.
  let openApi: Buffer | undefined;
  app.get('/v2/openapi.json', async (_request, reply) => {
    openApi ??= Buffer.from(JSON.stringify(openApiDocument(appRouter, { baseUrl: `${urls.api}/v2` })));
    return reply.type('application/json; charset=utf-8').send(openApi);
  });
  registerRestApi(app, {
    prefix: '/v2',
    router: appRouter,
    createContext: (request) => createContext(request, true),
    cache,
  });
  registerTrpcApi(app, { prefix: '/trpc', createContext: (request) => createContext(request, false) });
  registerAgentApi(app, { prefix: '/v3', useCases: deps.useCases, urls });
  registerArtifactApi(app, { prefix: '/v3', useCases: deps.useCases, urls });
  registerInboundApi(app, { useCases: deps.useCases, urls });

  // GraphQL's modules and schema (~10 MB of heap, and the heap grows in proportion to what it holds)
  // are loaded on the first /graphql request, not by a server that only answers REST and tRPC.
  // A failed load (a 500 for that request) is not kept: the next request tries again.
  const graphql = pMemoize(
    (): Promise<GraphqlServer> =>
      import('@ci/graphql').then(({ createGraphqlServer }) =>
        createGraphqlServer({
          useCases: deps.useCases,
          urls,
          rateLimits: deps.config.rateLimits,
          maxBodyBytes: deps.config.bodyLimit,
        }),
      ),
  );
  // GraphQL reads its own bodies (JSON, or `application/graphql`), so its route takes them as text.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.route({
      method: ['GET', 'POST'],
      url: '/graphql',
      handler: async (request, reply) => {
        // Yoga reads the Node request itself (no WHATWG Request built here); its URL from `raw`, not
        // from Fastify's parsed query, so repeated parameters read as before.
        const server = await graphql();
        const response = await concurrency(() =>
          server.handleNode(
            {
              raw: request.raw,
              method: request.method,
              headers: request.headers,
              body: typeof request.body === 'string' ? request.body : undefined,
            },
            reply.raw,
            {
              logError: (error) => logFailure(request.log, error, isStoreUnavailable(error) ? 503 : 500),
              clientAddress: request.ip,
            },
          ),
        );
        // One without a type of its own (a bodyless 415) goes out typed application/octet-stream, as
        // Fastify types bytes.
        return reply.code(response.status).headers(response.headers).send(response.body);
      },
    });
  });

  registerDocsPages(app);

  await registerWebApp(app, { useCases: deps.useCases, urls, rateLimits: deps.config.rateLimits });

  /** The database's answer to a ping: null when it answers, else the 503 to send (the outage logged once). */
  const databaseDown = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await deps.pingDatabase();
      return null;
    } catch (error) {
      storeOutage.report(request.log, error);
      return reply
        .code(503)
        .header('Retry-After', String(STORE_RETRY_AFTER_SECONDS))
        .send({ message: STORE_UNAVAILABLE_MESSAGE, status: 'unavailable', database: 'unreachable' });
    }
  };

  // Liveness with the database's state (what the tests and the scripts wait for).
  app.get('/healthz', async (request, reply) => {
    return (await databaseDown(request, reply)) ?? { status: 'ok', database: 'ok' };
  });

  // Readiness: whether to send this process traffic now; not while its database is away, nor once it
  // shuts down (the onRequest hook answers every request 503 then).
  app.get('/readyz', async (request, reply) => {
    return (await databaseDown(request, reply)) ?? { status: 'ready', database: 'ok' };
  });

  return app;
}
