import { badRequest, isJsonObject, notFound, readOptionalText, unprocessable } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline, requireScope } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import { loadPipeline, type PipelineResult } from '../pipelines/pipeline-result';
import { addressPipeline } from '../pipelines/pipelines-by-id';
import { newWebhookToken } from '../pipelines/webhook-token';
import type { Deps } from '../ports';

const SECRET_LIMIT = 255;

/** `secret`: a string sets it, null or '' clears it, absent leaves it. */
function secretOf(body: unknown): string | null | undefined {
  if (!isJsonObject(body)) return undefined;
  const read = readOptionalText(body.secret, 'secret', SECRET_LIMIT);
  if (!read.ok) throw badRequest('webhook_secret_invalid', read.error.message);
  return read.value;
}

/**
 * Makes the pipeline's inbound webhook: a new token (so a new `webhook_url`) when it has none, the one it
 * has otherwise; the body's `secret`, when given, is what GitHub signs deliveries with and GitLab sends.
 */
export const createPipelineWebhook =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef, body: unknown = undefined): Promise<PipelineResult> => {
    const target = await requirePipeline(deps)(actor, 'createPipelineWebhook', ref, 'manage');
    const secret = secretOf(body);
    if (target.pipeline.webhookToken === null) {
      if (!(await deps.repos.sourceWebhooks.setToken(target.pipeline.id, newWebhookToken()))) {
        throw notFound('pipeline');
      }
    }
    if (secret !== undefined) await deps.repos.sourceWebhooks.setSecret(target.pipeline.id, secret);
    return loadPipeline(deps)({
      pipelineId: target.pipeline.id,
      access: target.access,
      organizationSlug: target.organization.slug,
    });
  };

/** Drops the pipeline's inbound webhook: its URL answers 404 until one is made again. */
export const deletePipelineWebhook =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef): Promise<{ pipeline: PipelineResult; deletedToken: string }> => {
    const target = await requirePipeline(deps)(actor, 'deletePipelineWebhook', ref, 'manage');
    const deletedToken = target.pipeline.webhookToken;
    if (deletedToken === null) throw unprocessable('webhook_not_found', 'The pipeline has no webhook');
    await deps.repos.sourceWebhooks.setToken(target.pipeline.id, null);
    await deps.repos.sourceWebhooks.setSecret(target.pipeline.id, null);
    const pipeline = await loadPipeline(deps)({
      pipelineId: target.pipeline.id,
      access: target.access,
      organizationSlug: target.organization.slug,
    });
    return { pipeline, deletedToken };
  };

/** GraphQL's `pipelineCreateWebhook`: the pipeline by its UUID. */
export const createPipelineWebhookById =
  (deps: Deps) =>
  async (actor: Actor, pipelineId: string | null): Promise<PipelineResult> => {
    requireScope(actor, 'createPipelineWebhook');
    const { ref } = await addressPipeline(deps, actor, pipelineId);
    return createPipelineWebhook(deps)(actor, ref);
  };

/** GraphQL's `pipelineDeleteWebhook`: the pipeline by its UUID. */
export const deletePipelineWebhookById = (deps: Deps) => async (actor: Actor, pipelineId: string | null) => {
  requireScope(actor, 'deletePipelineWebhook');
  const { ref } = await addressPipeline(deps, actor, pipelineId);
  return deletePipelineWebhook(deps)(actor, ref);
};
