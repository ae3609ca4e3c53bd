import { randomInt } from 'node:crypto';
import {
  isPipelineTriggerToken,
  isUuid,
  newBuildRefusal,
  PIPELINE_TRIGGER_TOKEN_PREFIX,
  type PipelineTrigger,
  type PipelineTriggerFields,
  parsePipelineTriggerRequest,
  pipelineTriggerBuildRequest,
  pipelineTriggerErrors,
} from '@ci/domain';
import { sha256Hex } from '../auth/access-token-secret';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import { scheduleBuild } from '../builds/create-build';
import type { Deps } from '../ports';
import { inboundTarget, parsePayload, type WebhookDelivery, type WebhookOutcome } from './source-webhooks';

export interface PipelineTriggerRef extends PipelineRef {
  trigger: string;
}

/** A trigger as its pipeline's answers show it; `token` only in the answer that made it. */
export interface PipelineTriggerView {
  trigger: PipelineTrigger;
  organizationSlug: string;
  pipelineSlug: string;
  token?: string;
}

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `bktr_` and 40 letters and digits (about 238 bits), drawn without bias. */
function newTriggerToken(): string {
  let token = PIPELINE_TRIGGER_TOKEN_PREFIX;
  for (let i = 0; i < 40; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

export const listPipelineTriggers =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef): Promise<PipelineTriggerView[]> => {
    const target = await requirePipeline(deps)(actor, 'listPipelineTriggers', ref, 'manage');
    const triggers = await deps.repos.pipelineTriggers.list(target.pipeline.id);
    return triggers.map((trigger) => ({
      trigger,
      organizationSlug: target.organization.slug,
      pipelineSlug: target.pipeline.slug,
    }));
  };

async function requireTrigger(
  deps: Deps,
  actor: Actor,
  operation: 'getPipelineTrigger' | 'updatePipelineTrigger' | 'deletePipelineTrigger',
  ref: PipelineTriggerRef,
) {
  const target = await requirePipeline(deps)(actor, operation, ref, 'manage');
  const trigger = isUuid(ref.trigger)
    ? await deps.repos.pipelineTriggers.find(target.pipeline.id, ref.trigger.toLowerCase())
    : null;
  if (!trigger) throw pipelineTriggerErrors.notFound();
  return { target, trigger };
}

export const getPipelineTrigger =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineTriggerRef): Promise<PipelineTriggerView> => {
    const { target, trigger } = await requireTrigger(deps, actor, 'getPipelineTrigger', ref);
    return { trigger, organizationSlug: target.organization.slug, pipelineSlug: target.pipeline.slug };
  };

/** Makes a trigger; its URL's token is in this answer only, and stored as its SHA-256. */
export const createPipelineTrigger =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef, body: unknown): Promise<PipelineTriggerView> => {
    const target = await requirePipeline(deps)(actor, 'createPipelineTrigger', ref, 'manage');
    const fields = parsePipelineTriggerRequest(body, false);
    if (!fields.ok) throw fields.error;
    const token = newTriggerToken();
    const trigger: PipelineTrigger = {
      ...(fields.value as PipelineTriggerFields),
      id: deps.newId(),
      pipelineId: target.pipeline.id,
      tokenHash: sha256Hex(token),
      createdAt: deps.clock.now(),
      createdById: actor.user.id,
    };
    await deps.repos.pipelineTriggers.insert(trigger);
    return { trigger, token, organizationSlug: target.organization.slug, pipelineSlug: target.pipeline.slug };
  };

export const updatePipelineTrigger =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineTriggerRef, body: unknown): Promise<PipelineTriggerView> => {
    const { target, trigger } = await requireTrigger(deps, actor, 'updatePipelineTrigger', ref);
    const changes = parsePipelineTriggerRequest(body, true);
    if (!changes.ok) throw changes.error;
    const updated = await deps.repos.pipelineTriggers.update({
      pipelineId: target.pipeline.id,
      id: trigger.id,
      changes: changes.value,
    });
    if (!updated) throw pipelineTriggerErrors.notFound();
    return {
      trigger: updated,
      organizationSlug: target.organization.slug,
      pipelineSlug: target.pipeline.slug,
    };
  };

export const deletePipelineTrigger =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineTriggerRef): Promise<void> => {
    const { target, trigger } = await requireTrigger(deps, actor, 'deletePipelineTrigger', ref);
    if (!(await deps.repos.pipelineTriggers.delete(target.pipeline.id, trigger.id))) {
      throw pipelineTriggerErrors.notFound();
    }
  };

/**
 * A JSON POST to a trigger's URL: a build of its pipeline (source `webhook`, no creator), the JSON kept as
 * meta-data `buildkite:webhook`. A malformed token is 400, an unknown one 404, a disabled trigger 403.
 */
export const receivePipelineTrigger =
  (deps: Deps) =>
  async (delivery: WebhookDelivery): Promise<WebhookOutcome> => {
    if (!isPipelineTriggerToken(delivery.token)) throw pipelineTriggerErrors.invalidToken();
    const found = await deps.repos.pipelineTriggers.findByTokenHash(sha256Hex(delivery.token));
    if (!found) throw pipelineTriggerErrors.notFound();
    if (!found.trigger.enabled) throw pipelineTriggerErrors.disabled();
    const payload = parsePayload(delivery.body);
    const request = pipelineTriggerBuildRequest(found.trigger, found.pipeline, JSON.stringify(payload));
    const refusal = newBuildRefusal(found.pipeline, { ...request, ignorePipelineBranchFilters: true });
    if (refusal) throw refusal;
    const created = await scheduleBuild(deps)(inboundTarget(found), null, {
      ...request,
      rebuiltFrom: null,
      source: 'webhook',
    });
    return { kind: 'triggered', id: created.view.build.id };
  };
