import { createHmac } from 'node:crypto';
import {
  type BuildState,
  badRequest,
  genericWebhookFields,
  newBuildRefusal,
  notFound,
  PIPELINE_TRIGGER_TOKEN_PREFIX,
  parseBuildRequest,
  readSourceEvent,
  type SourceHost,
  sourceHostOf,
  supersede,
  supersededBuildRules,
  webhookDecision,
  webhookSignatureInvalid,
} from '@ci/domain';
import { sameSecret } from '../auth/access-token-secret';
import { scheduleBuild } from '../builds/create-build';
import type { Deps } from '../ports';
import type { InboundPipeline } from './inbound-ports';
import { receivePipelineTrigger } from './pipeline-triggers';

/** A POST to a webhook URL: its token (the URL's last part), headers (lower-case names) and body as sent. */
export interface WebhookDelivery {
  token: string;
  headers: Record<string, string | undefined>;
  /** the body's text: signatures are over these bytes, so it is parsed here, not before */
  body: string;
}

/** What a delivery did: a build (its id and number), or nothing, saying why. */
export type WebhookOutcome =
  | { kind: 'built'; id: string; number: number; organizationSlug: string; pipelineSlug: string }
  | { kind: 'triggered'; id: string }
  | { kind: 'ignored'; reason: string };

const WEBHOOK_TOKEN = /^[0-9a-f]{50}$/;

/**
 * A delivery to `…/webhooks/deliver/<token>`: a pipeline trigger's `bktr_` token, or a pipeline's webhook
 * token receiving a source host's event (GitHub, GitLab, Bitbucket, or the generic JSON form).
 */
export const deliverWebhook =
  (deps: Deps) =>
  async (delivery: WebhookDelivery): Promise<WebhookOutcome> => {
    // Any `bktr_` token is a trigger's: a malformed one answers the trigger's 400, not a 404.
    if (delivery.token.startsWith(PIPELINE_TRIGGER_TOKEN_PREFIX)) {
      return receivePipelineTrigger(deps)(delivery);
    }
    return receiveSourceWebhook(deps)(delivery);
  };

export const receiveSourceWebhook =
  (deps: Deps) =>
  async (delivery: WebhookDelivery): Promise<WebhookOutcome> => {
    const target = WEBHOOK_TOKEN.test(delivery.token)
      ? await deps.repos.sourceWebhooks.findByToken(delivery.token)
      : null;
    if (!target) throw notFound('pipeline');
    const { host, event } = sourceHostOf(delivery.headers);
    if (target.secret !== null && !signedWith(target.secret, host, delivery)) throw webhookSignatureInvalid();
    const payload = parsePayload(delivery.body);
    const read = readSourceEvent(host, event, payload);
    if (!read.ok) throw read.error;
    const source = read.value;
    let body: Record<string, unknown>;
    if (source.kind === 'generic') {
      const fields = genericWebhookFields(target.pipeline, source.body);
      if ('skip' in fields) return { kind: 'ignored', reason: fields.skip };
      body = fields.body;
    } else {
      const decision = webhookDecision(target.pipeline, source);
      if ('skip' in decision) return { kind: 'ignored', reason: decision.skip };
      body = createBody(decision.build);
    }
    // Through the create body's own checks, so a webhook's build is as valid as an API one.
    const request = parseBuildRequest(body);
    if (!request.ok) throw request.error;
    const refusal = newBuildRefusal(target.pipeline, { ...request.value, ignorePipelineBranchFilters: true });
    if (refusal) throw refusal;
    const created = await scheduleBuild(deps)(inboundTarget(target), null, {
      ...request.value,
      rebuiltFrom: null,
      source: 'webhook',
    });
    const { build } = created.view;
    await supersedeEarlierBuilds(deps, target, build);
    return {
      kind: 'built',
      id: build.id,
      number: build.number,
      organizationSlug: target.organization.slug,
      pipelineSlug: target.pipeline.slug,
    };
  };

/** A pipeline found by its own secret is worked on as its organization would: no user's access limits it. */
export function inboundTarget(target: InboundPipeline) {
  return { ...target, access: 'admin' as const };
}

/** The domain's build fields as the create body names them, for `parseBuildRequest`. */
function createBody(build: {
  commit: string;
  branch: string;
  message: string | null;
  author: { name: string; email: string } | null;
  pullRequest: { id: string; base: string | null; repository: string | null } | null;
}): Record<string, unknown> {
  return {
    commit: build.commit,
    branch: build.branch,
    message: build.message,
    author: build.author,
    pull_request_id: build.pullRequest?.id,
    pull_request_base_branch: build.pullRequest?.base,
    pull_request_repository: build.pullRequest?.repository,
  };
}

/** Malformed JSON is the sender's mistake: 400, as the API's own `Problems parsing JSON`. */
export function parsePayload(body: string): unknown {
  if (body.trim() === '') return {};
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest('invalid_json', 'Problems parsing JSON');
  }
}

/**
 * GitLab sends the secret itself (`X-Gitlab-Token`); GitHub, Bitbucket and generic senders an HMAC-SHA256
 * of the body with it (`X-Hub-Signature-256`, Bitbucket's `X-Hub-Signature`: `sha256=<hex>`).
 */
function signedWith(secret: string, host: SourceHost, delivery: WebhookDelivery): boolean {
  if (host === 'gitlab') {
    const token = delivery.headers['x-gitlab-token'];
    return token !== undefined && sameSecret(token, secret);
  }
  const signature = delivery.headers['x-hub-signature-256'] ?? delivery.headers['x-hub-signature'];
  if (signature === undefined) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;
  return sameSecret(signature.trim().toLowerCase(), expected);
}

const QUEUED: readonly BuildState[] = ['scheduled'];
const RUNNING: readonly BuildState[] = ['running', 'failing'];

/**
 * Builds superseded in one transaction: a push over a thousand queued builds changes them in a few
 * statements (each batch's events queued with it) without holding a thousand builds' locks at once.
 */
const SUPERSEDED_PER_TRANSACTION = 250;

/** Skips the branch's queued builds and cancels its running ones, as the pipeline's settings ask. */
async function supersedeEarlierBuilds(
  deps: Deps,
  target: InboundPipeline,
  build: { id: string; branch: string },
): Promise<void> {
  const rules = supersededBuildRules(target.pipeline, build.branch);
  const passes: ['skip' | 'cancel', readonly BuildState[]][] = [];
  if (rules.skipQueued) passes.push(['skip', QUEUED]);
  if (rules.cancelRunning) passes.push(['cancel', RUNNING]);
  for (const [how, states] of passes) {
    const ids = await deps.repos.sourceWebhooks.buildsOnBranch({
      pipelineId: target.pipeline.id,
      branch: build.branch,
      states,
      exceptId: build.id,
    });
    for (let from = 0; from < ids.length; from += SUPERSEDED_PER_TRANSACTION) {
      await deps.repos.jobs.changeBuilds(ids.slice(from, from + SUPERSEDED_PER_TRANSACTION), (work) => {
        const next = supersede(work, how, deps.clock.now());
        return next ? { ...next, result: true } : null;
      });
    }
  }
}
