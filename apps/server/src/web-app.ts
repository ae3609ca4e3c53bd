import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { csrfTokenFor, type JobLogPage, sameSecret, type UseCases } from '@ci/application';
import { isDomainError, parseBuildNumber, type RateLimitPolicy } from '@ci/domain';
import { type PublicUrls, replyWithError } from '@ci/trpc';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie: HttpOnly, SameSite=Lax, Secure when the app is served over https. */
export const SESSION_COOKIE = 'ci_session';
/** The header the web app's tRPC client sends with every change, holding the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The pages, at exactly the paths of our `web_url`s (packages/domain's `webAddresses`). Each answers the
 * same page shell; the app in it reads what the path names through /trpc, as the signed-in user.
 */
export const WEB_PAGES = [
  '/sign-in',
  '/:organization',
  '/:organization/:pipeline',
  '/:organization/:pipeline/builds',
  '/:organization/:pipeline/builds/:number',
  '/organizations/:organization/agents',
  '/organizations/:organization/agents/:agent',
  '/organizations/:organization/teams',
  '/organizations/:organization/packages/registries',
  '/organizations/:organization/packages/registries/:registry',
  '/organizations/:organization/clusters/:cluster',
] as const;

/** Vite's output (apps/web/dist): two folders up from this file in the sources and in the bundle alike. */
const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** How often a live log looks for new chunks (a page of them at most per look, `followJobLog`). */
const LOG_POLL_MS = 400;
const LOG_HEARTBEAT_MS = 15_000;

export interface WebAppOptions {
  useCases: UseCases;
  urls: PublicUrls;
  /** the API's rate limits (null: off), which count refused credentials of the live log too */
  rateLimits: RateLimitPolicy | null;
  /** where the built app is; apps/web/dist by default */
  root?: string;
}

/**
 * The web session a /trpc request carries (its cookie's secret), or null: none, or a change (anything
 * but GET and HEAD) without the session's CSRF token, which then authenticates as no one at all.
 */
export function webSessionOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const secret = fastifyCookie.parse(header)[SESSION_COOKIE];
  if (!secret) return null;
  if (request.method === 'GET' || request.method === 'HEAD') return secret;
  const sent = request.headers[CSRF_HEADER];
  return typeof sent === 'string' && sameSecret(sent, csrfTokenFor(secret)) ? secret : null;
}

/** A browser's change must come from our own pages: an `Origin` of another site is refused (login CSRF). */
function fromOurOrigin(request: FastifyRequest, urls: PublicUrls): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === `${request.protocol}://${request.host}` || origin === new URL(urls.web).origin;
}

function secureCookie(request: FastifyRequest, urls: PublicUrls): boolean {
  return request.protocol === 'https' || urls.web.startsWith('https:');
}

/** The page shell with the session's CSRF token in a meta tag (empty when signed out). */
function shellFor(shell: string, request: FastifyRequest): string {
  const header = request.headers.cookie;
  const secret = header ? fastifyCookie.parse(header)[SESSION_COOKIE] : undefined;
  const token = secret ? csrfTokenFor(secret) : '';
  return shell.replace('</head>', `<meta name="csrf-token" content="${token}"></head>`);
}

type PageParams = Partial<
  Record<'organization' | 'pipeline' | 'number' | 'agent' | 'registry' | 'cluster', string>
>;

/**
 * Whether what a page's path names does not exist for the signed-in user, decided by the use cases the
 * page's own data calls go through (so the same access rules): the shell then answers 404. Signed out,
 * or any other refusal, the shell answers 200 and the app shows what the data call answers.
 */
async function hiddenFromSession(request: FastifyRequest, useCases: UseCases): Promise<boolean> {
  const { organization, pipeline, number, agent, registry, cluster } = request.params as PageParams;
  const secret = organization === undefined ? null : webSessionOf(request);
  if (organization === undefined || !secret) return false;
  try {
    const actor = await useCases.authenticateSession(secret, request.ip);
    if (pipeline !== undefined && number !== undefined) {
      await useCases.getBuild(actor, { organization, pipeline, number: parseBuildNumber(number) });
    } else if (pipeline !== undefined) {
      await useCases.getPipeline(actor, { organization, pipeline });
    } else if (agent !== undefined) {
      await useCases.getAgent(actor, { organization, agent });
    } else if (registry !== undefined) {
      await useCases.getRegistry(actor, { organization, registry });
    } else if (cluster !== undefined) {
      await useCases.getCluster(actor, { organization, cluster });
    } else {
      await useCases.getOrganization(actor, organization);
    }
    return false;
  } catch (error) {
    if (!isDomainError(error)) request.log.error({ err: error }, 'page access check failed');
    return isDomainError(error) && error.kind === 'not_found';
  }
}

/**
 * The web app: its pages at the `web_url` paths, its assets under /assets (Vite's hashed names, cached
 * for good), sign-in and sign-out, and a job's live log as server-sent events. Registered by app.ts;
 * static routes (/graphql, /healthz, /v2/…) keep winning over these parametric ones (find-my-way).
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const { useCases, urls } = options;
  const root = options.root ?? DEFAULT_WEB_ROOT;
  let shell: string | undefined;
  const readShell = async () => {
    shell ??= await readFile(`${root}/index.html`, 'utf8').catch(() => undefined);
    return shell;
  };
  // Live logs end when the server closes, so that closing never waits on a browser.
  const closing = new AbortController();

  await app.register(async (scope) => {
    scope.addHook('onClose', async () => closing.abort());
    await scope.register(fastifyCookie);
    await scope.register(fastifyStatic, {
      root: `${root}/assets`,
      prefix: '/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      index: false,
    });

    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      const html = await readShell();
      if (!html) {
        return reply
          .code(503)
          .send({ message: 'The web app is not built: run `pnpm start` (or `node scripts/build-web.mjs`)' });
      }
      if (await hiddenFromSession(request, useCases)) reply.code(404);
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header(
          'Content-Security-Policy',
          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        )
        .header('Referrer-Policy', 'same-origin')
        .header('X-Content-Type-Options', 'nosniff')
        .send(shellFor(html, request));
    };
    for (const url of WEB_PAGES) scope.get(url, page);

    scope.post('/sign-in', async (request, reply) => {
      if (!fromOurOrigin(request, urls))
        return reply.code(403).send({ message: 'Cross-site sign-in refused' });
      const token = (request.body as { token?: unknown } | undefined)?.token;
      if (typeof token !== 'string' || token.trim() === '') {
        return reply.code(422).send({ message: 'Validation Failed: token is required' });
      }
      try {
        const signed = await useCases.signIn(token, request.ip);
        reply.setCookie(SESSION_COOKIE, signed.secret, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookie(request, urls),
          expires: signed.expiresAt,
        });
        return { csrf_token: signed.csrfToken };
      } catch (error) {
        return replyWithError(request, reply, error);
      }
    });

    scope.post('/sign-out', async (request, reply) => {
      const secret = request.cookies[SESSION_COOKIE];
      if (secret) {
        if (!fromOurOrigin(request, urls) || webSessionOf(request) === null) {
          return reply.code(403).send({ message: 'Sign-out needs the page’s CSRF token' });
        }
        await useCases.signOut(secret);
      }
      reply.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookie(request, urls),
      });
      return reply.code(204).send();
    });

    scope.get<{
      Params: { organization: string; pipeline: string; number: string; job: string };
      Querystring: { after?: string };
    }>('/live/jobs/:organization/:pipeline/:number/:job/log', async (request, reply) => {
      let follow: Awaited<ReturnType<UseCases['followJobLog']>>;
      try {
        // As every API request: the token or the web session, a refusal counted against its address.
        const admitted = await useCases.authenticateRequest({
          authorization: request.headers.authorization,
          session: webSessionOf(request),
          clientAddress: request.ip,
          policy: options.rateLimits,
        });
        if ('refused' in admitted) {
          reply.headers(admitted.refused.headers);
          throw admitted.refused.error;
        }
        const { actor } = admitted;
        const { organization, pipeline, number, job } = request.params;
        follow = await useCases.followJobLog(actor, {
          organization,
          pipeline,
          number: parseBuildNumber(number),
          job,
        });
      } catch (error) {
        return replyWithError(request, reply, error);
      }
      // EventSource resumes after the last chunk it saw (its Last-Event-ID); a first request may say where.
      const resumeFrom = request.headers['last-event-id'] ?? request.query.after;
      let after = Number.parseInt(typeof resumeFrom === 'string' ? resumeFrom : '-1', 10);
      if (!Number.isSafeInteger(after)) after = -1;

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Request-Id': request.id,
      });
      const gone = new AbortController();
      raw.on('close', () => gone.abort());
      const stop = AbortSignal.any([gone.signal, closing.signal]);
      let lastWrite = Date.now();
      try {
        while (!stop.aborted) {
          const page: JobLogPage = await follow.read(after);
          for (const chunk of page.chunks) {
            const sent = raw.write(
              `id: ${chunk.sequence}\nevent: chunk\ndata: ${JSON.stringify(chunk.content)}\n\n`,
            );
            after = chunk.sequence;
            lastWrite = Date.now();
            // A slow reader holds the stream back: the server never queues more than a page for it.
            if (!sent) await once(raw, 'drain', { signal: stop }).catch(() => undefined);
          }
          if (page.finished) {
            raw.write('event: end\ndata: {}\n\n');
            break;
          }
          if (page.more) continue;
          if (Date.now() - lastWrite > LOG_HEARTBEAT_MS) {
            raw.write(': still running\n\n');
            lastWrite = Date.now();
          }
          await sleep(LOG_POLL_MS, undefined, { signal: stop }).catch(() => undefined);
        }
      } catch (error) {
        if (!isDomainError(error)) request.log.error({ err: error }, 'live log failed');
        raw.write(`event: failure\ndata: ${JSON.stringify({ message: 'The log stream stopped' })}\n\n`);
      }
      raw.end();
    });
  });
}
