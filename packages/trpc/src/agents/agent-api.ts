import { gunzipSync } from 'node:zlib';
import { type AgentJobAction, type DispatchedJob, MAX_CHUNK_BYTES, type UseCases } from '@ci/application';
import {
  type Agent,
  ANNOTATION_BODY_MAX_BYTES,
  badRequest,
  formatTimestamp,
  jobEnvironment,
} from '@ci/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { presentAnnotation } from '../annotations/annotation.presenter';
import { replyWithError } from '../http-errors';
import type { PublicUrls } from '../trpc';

/**
 * An annotate call's JSON may be larger than its body of at most 1 MiB (escapes): the route takes up to
 * four times that, past the server's usual limit; the use case refuses a body past 1 MiB.
 */
const ANNOTATE_BODY_LIMIT = 4 * ANNOTATION_BODY_MAX_BYTES;

/** The size the agent is told to keep its whole log under. */
const LOG_MAX_BYTES = 100 * 1024 * 1024;

function agentWire(agent: Agent) {
  return {
    id: agent.id,
    name: agent.name,
    hostname: agent.hostname,
    connection_state: agent.connectionState,
    meta_data: agent.tags,
    created_at: formatTimestamp(agent.createdAt),
  };
}

/** A job as the agent API hands it over: the command travels in the env, as in the public agent API. */
function jobWire(dispatched: DispatchedJob, urls: PublicUrls) {
  const { view, location, agent } = dispatched;
  const job = location.job;
  const env = jobEnvironment({ ...view, job, agentName: agent.name, web: urls.web });
  return {
    id: job.id,
    endpoint: `${urls.api}/v3`,
    state: job.state,
    env,
    step: { key: job.stepKey, label: job.name, command: job.command },
    chunks_max_size_bytes: MAX_CHUNK_BYTES,
    log_max_size_bytes: LOG_MAX_BYTES,
    exit_status: job.exitStatus === null ? undefined : String(job.exitStatus),
    signal: job.signal ?? undefined,
    signal_reason: job.signalReason ?? undefined,
    runnable_at: formatTimestamp(job.runnableAt) ?? undefined,
    started_at: formatTimestamp(job.startedAt) ?? undefined,
    finished_at: formatTimestamp(job.finishedAt) ?? undefined,
  };
}

export type Body = Record<string, unknown>;

/** Bodies arrive as bytes: JSON for most calls, log bytes (gzip or not) for chunks. */
export function jsonBody(request: FastifyRequest): Body {
  const raw = request.body as Buffer | undefined;
  if (!raw || raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('invalid_json', 'Problems parsing JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('invalid_json', 'Problems parsing JSON: the body must be a JSON object');
  }
  return parsed as Body;
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The agent's process id, a number in the public agent's register body (a string is taken too). */
const pidOf = (body: Body) =>
  typeof body.pid === 'number' && Number.isSafeInteger(body.pid) ? String(body.pid) : str(body.pid);

/** `exit_status` is a string in the public agent API ("0", "-1"); a number is taken too. */
function exitStatusOf(body: Body): number | null {
  const value = body.exit_status;
  if (value === undefined || value === null || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(number) || number < -1 || number > 255) {
    throw badRequest('invalid_exit_status', 'exit_status must be a whole number from -1 to 255');
  }
  return number;
}

function finishAction(body: Body): AgentJobAction {
  return {
    type: 'finish',
    exitStatus: exitStatusOf(body),
    signal: str(body.signal) || null,
    signalReason: str(body.signal_reason) || null,
  };
}

function tagsOf(body: Body): string[] {
  const tags = body.meta_data ?? body.tags ?? [];
  if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string') || tags.length > 100) {
    throw badRequest('invalid_tags', 'meta_data must be a list of key=value strings');
  }
  return tags as string[];
}

function logBytes(request: FastifyRequest): string {
  const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
  const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
  try {
    return (encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  } catch {
    throw badRequest('invalid_chunk', 'The chunk is not valid gzip data');
  }
}

function integerParameter(value: unknown, name: string): number {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw badRequest(`invalid_${name}`, `${name} must be a whole number`);
  return number;
}

/**
 * The agent protocol under `prefix` (`/v3`), shaped after the public agent API: register with an
 * organization's registration token, then every call with the agent's own token
 * (`Authorization: Token …`). A thin adapter: every rule lives in the use cases.
 */
export function registerAgentApi(
  app: FastifyInstance,
  options: { prefix: `/${string}`; useCases: UseCases; urls: PublicUrls },
) {
  const { useCases, urls } = options;
  const agents = useCases.agents;
  app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.setErrorHandler((error, request, reply) => replyWithError(request, reply, error));

      const route = (
        method: 'GET' | 'POST' | 'PUT' | 'DELETE',
        url: string,
        handle: (request: FastifyRequest, auth: string | undefined) => Promise<unknown>,
        options: { bodyLimit?: number } = {},
      ) =>
        scope.route({
          method,
          url,
          ...options,
          handler: async (request: FastifyRequest, reply: FastifyReply) => {
            const result = await handle(request, request.headers.authorization);
            if (result === undefined) return reply.code(204).send();
            return reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
          },
        });
      const jobId = (request: FastifyRequest) => (request.params as { id: string }).id;

      route('POST', '/register', async (request, auth) => {
        const body = jsonBody(request);
        const { agent, accessToken, timings } = await agents.register(auth, {
          ...(str(body.name) ? { name: str(body.name) } : {}),
          ...(str(body.hostname) ? { hostname: str(body.hostname) } : {}),
          ...(str(body.version) ? { version: str(body.version) } : {}),
          ...(pidOf(body) ? { pid: pidOf(body) } : {}),
          tags: tagsOf(body),
          userAgent: str(request.headers['user-agent']) ?? null,
          ipAddress: request.ip ?? null,
        });
        return {
          uuid: agent.id,
          name: agent.name,
          access_token: accessToken,
          endpoint: `${urls.api}/v3`,
          ping_interval: timings.pingInterval,
          job_status_interval: timings.jobStatusInterval,
          heartbeat_interval: timings.heartbeatInterval,
          meta_data: agent.tags,
        };
      });
      route('POST', '/connect', async (_request, auth) => agentWire(await agents.connect(auth)));
      route('POST', '/disconnect', async (_request, auth) => agentWire(await agents.disconnect(auth)));
      route('POST', '/heartbeat', async (request, auth) => {
        const body = jsonBody(request);
        const { receivedAt } = await agents.heartbeat(auth);
        return { sent_at: str(body.sent_at) ?? null, received_at: receivedAt.toISOString() };
      });
      route('GET', '/ping', async (_request, auth) => {
        const result = await agents.ping(auth);
        return { action: result.action, ...(result.job ? { job: jobWire(result.job, urls) } : {}) };
      });
      route('GET', '/jobs/:id', async (request, auth) => ({
        state: (await agents.jobState(auth, jobId(request))).state,
      }));
      route('PUT', '/jobs/:id/accept', async (request, auth) =>
        jobWire(await agents.jobAction(auth, jobId(request), { type: 'accept' }), urls),
      );
      route('PUT', '/jobs/:id/start', async (request, auth) => {
        jsonBody(request);
        return jobWire(await agents.jobAction(auth, jobId(request), { type: 'start' }), urls);
      });
      route('PUT', '/jobs/:id/finish', async (request, auth) =>
        jobWire(await agents.jobAction(auth, jobId(request), finishAction(jsonBody(request))), urls),
      );
      route('POST', '/jobs/:id/chunks', async (request, auth) => {
        const query = request.query as Record<string, unknown>;
        await agents.appendLog(auth, jobId(request), {
          sequence: integerParameter(query.sequence, 'sequence'),
          offset: integerParameter(query.offset ?? '0', 'offset'),
          content: logBytes(request),
        });
        return undefined;
      });
      // `buildkite-agent annotate` and `annotation remove`: the job's build, as the public agent API.
      route(
        'POST',
        '/jobs/:id/annotations',
        async (request, auth) =>
          presentAnnotation(await agents.annotate(auth, jobId(request), jsonBody(request))),
        { bodyLimit: ANNOTATE_BODY_LIMIT },
      );
      route('DELETE', '/jobs/:id/annotations/:context', async (request, auth) => {
        await agents.removeAnnotation(auth, jobId(request), (request.params as { context: string }).context);
        return undefined;
      });

      // A job's own commands (`buildkite-agent pipeline upload`, `meta-data …`), with the agent's token.
      route('POST', '/jobs/:id/pipelines', async (request, auth) => {
        const body = jsonBody(request);
        const result = await agents.uploadPipeline(auth, jobId(request), {
          pipeline: body.pipeline,
          replace: body.replace === true,
          dryRun: body.dry_run === true,
          interpolate: body.no_interpolation !== true,
          web: urls.web,
        });
        return {
          uuid: str(body.uuid) ?? null,
          state: body.dry_run === true ? 'dry_run' : 'applied',
          jobs: result.jobIds,
          pipeline: result.pipeline,
        };
      });
      route('POST', '/jobs/:id/data/set', async (request, auth) => {
        const body = jsonBody(request);
        await agents.setMetaData(auth, jobId(request), { key: body.key, value: body.value });
        return undefined;
      });
      route('POST', '/jobs/:id/data/get', async (request, auth) => {
        const key = jsonBody(request).key;
        return { key, value: await agents.getMetaData(auth, jobId(request), key) };
      });
      route('POST', '/jobs/:id/data/exists', async (request, auth) => ({
        exists: await agents.metaDataExists(auth, jobId(request), jsonBody(request).key),
      }));
      route('POST', '/jobs/:id/data/keys', async (request, auth) =>
        agents.metaDataKeys(auth, jobId(request)),
      );
    },
    { prefix: options.prefix },
  );
}
