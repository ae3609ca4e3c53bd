import { matchesBranchFilter } from './branch-filter';
import type { BuildRequest } from './build-input';
import { stopBuild } from './build-progress';
import type { BuildSnapshot } from './build-state';
import type { Job, Pipeline } from './entities';
import { badRequest, DomainError } from './errors';
import { isJsonObject } from './json-object';
import { presentableProviderSettings } from './pipeline';
import { err, ok, type Result } from './result';

/** Who sent a delivery to a pipeline's webhook URL, told by its headers. */
export const SOURCE_HOSTS = ['github', 'gitlab', 'bitbucket', 'generic'] as const;
export type SourceHost = (typeof SOURCE_HOSTS)[number];

/** What a pull request event did, in words common to the hosts. */
export type PullRequestAction =
  | 'opened'
  | 'updated'
  | 'reopened'
  | 'ready_for_review'
  | 'labels_changed'
  | 'closed'
  | 'other';

export interface SourceAuthor {
  name: string;
  email: string;
}

/** A delivery read into the words the build rules use; what a host sent beyond these is not kept. */
export type SourceEvent =
  | { kind: 'ping' }
  /** an event this service does not build on (`event` as the host named it) */
  | { kind: 'unsupported'; event: string }
  | {
      kind: 'push';
      ref: { type: 'branch' | 'tag'; name: string };
      commit: string;
      message: string | null;
      author: SourceAuthor | null;
      /** the branch or tag was deleted: nothing to build */
      deleted: boolean;
    }
  | {
      kind: 'pull_request';
      action: PullRequestAction;
      number: number;
      /** the head branch, as the head repository names it */
      branch: string;
      base: string;
      commit: string;
      message: string | null;
      author: SourceAuthor | null;
      /** the head repository's clone URL or path; null when the host did not say */
      repository: string | null;
      /** the head repository's owner when it is another repository than the base (a fork), else null */
      forkOwner: string | null;
    }
  /** the generic JSON form: the create-build body's fields, sent by any tool */
  | { kind: 'generic'; body: Record<string, unknown> };

/** Which host sent a delivery and its event name, from the request's headers (lower-case names). */
export function sourceHostOf(headers: Record<string, string | undefined>): {
  host: SourceHost;
  event: string;
} {
  const github = headers['x-github-event'];
  if (github !== undefined) return { host: 'github', event: github };
  const gitlab = headers['x-gitlab-event'];
  if (gitlab !== undefined) return { host: 'gitlab', event: gitlab };
  const bitbucket = headers['x-event-key'];
  if (bitbucket !== undefined) return { host: 'bitbucket', event: bitbucket };
  return { host: 'generic', event: 'build' };
}

const ZERO_SHA = /^0+$/;

function malformed(host: SourceHost, event: string, what: string): DomainError {
  return badRequest('webhook_payload_invalid', `The ${host} ${event} payload has no ${what}`);
}

/** Reads a text at a path of a JSON value; undefined when any step is missing or the end is no text. */
function text(value: unknown, ...path: string[]): string | undefined {
  let current = value;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return typeof current === 'string' ? current : undefined;
}

function integer(value: unknown, ...path: string[]): number | undefined {
  let current = value;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return typeof current === 'number' && Number.isSafeInteger(current) && current > 0 ? current : undefined;
}

/** A build's author needs a name and an email (as the create body's); a host that sends less gives none. */
function author(name: string | undefined, email: string | undefined): SourceAuthor | null {
  return name && email ? { name, email } : null;
}

/** `refs/heads/x` is branch x, `refs/tags/v1` tag v1; anything else is no ref this service builds. */
function refOf(ref: string | undefined): { type: 'branch' | 'tag'; name: string } | null {
  if (ref?.startsWith('refs/heads/')) return { type: 'branch', name: ref.slice('refs/heads/'.length) };
  if (ref?.startsWith('refs/tags/')) return { type: 'tag', name: ref.slice('refs/tags/'.length) };
  return null;
}

/**
 * Reads a delivery's JSON body as the event its host named. A known event without what a build needs
 * is a 400; an event this service does not build on is `unsupported` (answered 2xx, nothing done).
 */
export function readSourceEvent(host: SourceHost, event: string, payload: unknown): Result<SourceEvent> {
  if (!isJsonObject(payload))
    return err(badRequest('webhook_payload_invalid', 'The payload must be a JSON object'));
  switch (host) {
    case 'github':
      return readGithub(event, payload);
    case 'gitlab':
      return readGitlab(event, payload);
    case 'bitbucket':
      return readBitbucket(event, payload);
    case 'generic':
      return ok({ kind: 'generic', body: payload });
  }
}

const GITHUB_PULL_REQUEST_ACTIONS: Record<string, PullRequestAction> = {
  opened: 'opened',
  synchronize: 'updated',
  reopened: 'reopened',
  ready_for_review: 'ready_for_review',
  labeled: 'labels_changed',
  unlabeled: 'labels_changed',
  closed: 'closed',
};

function readGithub(event: string, payload: Record<string, unknown>): Result<SourceEvent> {
  if (event === 'ping') return ok({ kind: 'ping' });
  if (event === 'push') {
    const ref = refOf(text(payload, 'ref'));
    const commit = text(payload, 'after');
    if (!ref) return err(malformed('github', event, 'refs/heads or refs/tags ref'));
    if (!commit) return err(malformed('github', event, 'after commit'));
    return ok({
      kind: 'push',
      ref,
      commit,
      message: text(payload, 'head_commit', 'message') ?? null,
      author: author(
        text(payload, 'head_commit', 'author', 'name'),
        text(payload, 'head_commit', 'author', 'email'),
      ),
      deleted: payload.deleted === true || ZERO_SHA.test(commit),
    });
  }
  if (event === 'pull_request') {
    const pr = payload.pull_request;
    const number = integer(payload, 'number') ?? integer(pr, 'number');
    const branch = text(pr, 'head', 'ref');
    const base = text(pr, 'base', 'ref');
    const commit = text(pr, 'head', 'sha');
    if (!number || !branch || !base || !commit) {
      return err(malformed('github', event, 'pull_request with number, head ref and sha, and base ref'));
    }
    const head = text(pr, 'head', 'repo', 'full_name');
    const baseRepository = text(pr, 'base', 'repo', 'full_name');
    const fork = head !== undefined && baseRepository !== undefined && head !== baseRepository;
    return ok({
      kind: 'pull_request',
      action: GITHUB_PULL_REQUEST_ACTIONS[text(payload, 'action') ?? ''] ?? 'other',
      number,
      branch,
      base,
      commit,
      message: text(pr, 'title') ?? null,
      author: author(text(pr, 'user', 'login'), undefined),
      repository: text(pr, 'head', 'repo', 'clone_url') ?? head ?? null,
      forkOwner: fork ? (text(pr, 'head', 'repo', 'owner', 'login') ?? head.split('/')[0] ?? null) : null,
    });
  }
  return ok({ kind: 'unsupported', event });
}

const GITLAB_MERGE_REQUEST_ACTIONS: Record<string, PullRequestAction> = {
  open: 'opened',
  update: 'updated',
  reopen: 'reopened',
  close: 'closed',
  merge: 'closed',
};

function readGitlab(event: string, payload: Record<string, unknown>): Result<SourceEvent> {
  if (event === 'Push Hook' || event === 'Tag Push Hook') {
    const ref = refOf(text(payload, 'ref'));
    const commit = text(payload, 'checkout_sha') ?? text(payload, 'after');
    if (!ref) return err(malformed('gitlab', event, 'refs/heads or refs/tags ref'));
    if (!commit) return err(malformed('gitlab', event, 'after commit'));
    const commits = Array.isArray(payload.commits) ? payload.commits : [];
    const head = commits.find((entry) => text(entry, 'id') === commit) ?? commits.at(-1);
    return ok({
      kind: 'push',
      ref,
      commit,
      message: text(head, 'message') ?? null,
      author: author(
        text(head, 'author', 'name') ?? text(payload, 'user_name'),
        text(head, 'author', 'email') ?? text(payload, 'user_email'),
      ),
      deleted: ZERO_SHA.test(commit),
    });
  }
  if (event === 'Merge Request Hook') {
    const attributes = payload.object_attributes;
    const number = integer(attributes, 'iid');
    const branch = text(attributes, 'source_branch');
    const base = text(attributes, 'target_branch');
    const commit = text(attributes, 'last_commit', 'id');
    if (!number || !branch || !base || !commit) {
      return err(malformed('gitlab', event, 'object_attributes with iid, branches and last_commit'));
    }
    const source = text(attributes, 'source', 'path_with_namespace');
    const target = text(attributes, 'target', 'path_with_namespace');
    const fork = source !== undefined && target !== undefined && source !== target;
    return ok({
      kind: 'pull_request',
      action: GITLAB_MERGE_REQUEST_ACTIONS[text(attributes, 'action') ?? ''] ?? 'other',
      number,
      branch,
      base,
      commit,
      message: text(attributes, 'title') ?? null,
      author: author(text(payload, 'user', 'name'), text(payload, 'user', 'email')),
      repository: text(attributes, 'source', 'git_http_url') ?? source ?? null,
      forkOwner: fork ? (source.split('/')[0] ?? null) : null,
    });
  }
  return ok({ kind: 'unsupported', event });
}

function readBitbucket(event: string, payload: Record<string, unknown>): Result<SourceEvent> {
  if (event === 'diagnostics:ping') return ok({ kind: 'ping' });
  if (event === 'repo:push') {
    const changes =
      isJsonObject(payload.push) && Array.isArray(payload.push.changes) ? payload.push.changes : [];
    const change = changes.at(-1);
    const created = isJsonObject(change) ? change.new : undefined;
    if (!isJsonObject(change)) return err(malformed('bitbucket', event, 'push.changes'));
    // A deleted branch or tag has no `new` side.
    if (!isJsonObject(created)) {
      const old = text(change, 'old', 'name');
      if (!old) return err(malformed('bitbucket', event, 'new or old ref in push.changes'));
      const type = text(change, 'old', 'type') === 'tag' ? 'tag' : 'branch';
      return ok({
        kind: 'push',
        ref: { type, name: old },
        commit: '',
        message: null,
        author: null,
        deleted: true,
      });
    }
    const name = text(created, 'name');
    const commit = text(created, 'target', 'hash');
    if (!name || !commit) return err(malformed('bitbucket', event, 'new ref name and target hash'));
    const raw = text(created, 'target', 'author', 'raw');
    const parsed = raw ? /^(.*?)\s*<([^>]*)>\s*$/.exec(raw) : null;
    return ok({
      kind: 'push',
      ref: { type: text(created, 'type') === 'tag' ? 'tag' : 'branch', name },
      commit,
      message: text(created, 'target', 'message') ?? null,
      author: parsed ? author(parsed[1], parsed[2]) : author(raw, undefined),
      deleted: false,
    });
  }
  if (event === 'pullrequest:created' || event === 'pullrequest:updated') {
    const pr = payload.pullrequest;
    const number = integer(pr, 'id');
    const branch = text(pr, 'source', 'branch', 'name');
    const base = text(pr, 'destination', 'branch', 'name');
    const commit = text(pr, 'source', 'commit', 'hash');
    if (!number || !branch || !base || !commit) {
      return err(malformed('bitbucket', event, 'pullrequest with id, branches and source commit'));
    }
    const source = text(pr, 'source', 'repository', 'full_name');
    const destination = text(pr, 'destination', 'repository', 'full_name');
    const fork = source !== undefined && destination !== undefined && source !== destination;
    return ok({
      kind: 'pull_request',
      action: event === 'pullrequest:created' ? 'opened' : 'updated',
      number,
      branch,
      base,
      commit,
      message: text(pr, 'title') ?? null,
      author: author(text(pr, 'author', 'display_name'), undefined),
      repository: source ?? null,
      forkOwner: fork ? (source.split('/')[0] ?? null) : null,
    });
  }
  return ok({ kind: 'unsupported', event });
}

/** What the pipeline does with an event: build these fields, or nothing, saying why. */
export type WebhookDecision = { build: Omit<BuildRequest, 'ignorePipelineBranchFilters'> } | { skip: string };

type WebhookPipeline = Pick<Pipeline, 'provider' | 'repository' | 'branchConfiguration' | 'defaultBranch'>;

/**
 * Whether the pipeline builds a host event, by the provider settings it shows: `trigger_mode` (`code`
 * builds; `none`, `deployment` and `fork` build no code events here), `build_branches`, `build_tags`,
 * `build_pull_requests`, the branch filter (`branch_configuration`, and for pull requests
 * `pull_request_branch_filter_*` too), `build_pull_request_forks` and
 * `prefix_pull_request_fork_branch_names`. Generic deliveries are read by {@link genericWebhookBuild}.
 */
export function webhookDecision(
  pipeline: WebhookPipeline,
  event: Exclude<SourceEvent, { kind: 'generic' }>,
): WebhookDecision {
  const settings = presentableProviderSettings(pipeline.provider.settings, pipeline.repository);
  if (event.kind === 'ping') return { skip: 'ping' };
  if (event.kind === 'unsupported') return { skip: `the ${event.event} event builds nothing` };
  if (settings.trigger_mode !== 'code') return { skip: `trigger_mode is ${String(settings.trigger_mode)}` };
  if (event.kind === 'push') {
    if (event.deleted) return { skip: `the ${event.ref.type} was deleted` };
    if (event.ref.type === 'tag' && settings.build_tags !== true) return { skip: 'build_tags is off' };
    if (event.ref.type === 'branch' && settings.build_branches === false)
      return { skip: 'build_branches is off' };
    if (!matchesBranchFilter(pipeline.branchConfiguration, event.ref.name)) {
      return { skip: `${event.ref.name} does not match the branch filter` };
    }
    return {
      build: {
        ...NO_EXTRAS,
        commit: event.commit,
        branch: event.ref.name,
        message: event.message,
        author: event.author,
        pullRequest: null,
      },
    };
  }
  if (settings.build_pull_requests !== true) return { skip: 'build_pull_requests is off' };
  if (!buildsPullRequestAction(event.action, settings)) {
    return { skip: `pull request action ${event.action} builds nothing` };
  }
  if (event.forkOwner !== null && settings.build_pull_request_forks !== true) {
    return { skip: 'build_pull_request_forks is off' };
  }
  if (settings.ignore_default_branch_pull_requests === true && event.branch === pipeline.defaultBranch) {
    return { skip: 'pull requests from the default branch are ignored' };
  }
  if (!matchesBranchFilter(pipeline.branchConfiguration, event.branch)) {
    return { skip: `${event.branch} does not match the branch filter` };
  }
  if (
    settings.pull_request_branch_filter_enabled === true &&
    !matchesBranchFilter(textSetting(settings.pull_request_branch_filter_configuration), event.branch)
  ) {
    return { skip: `${event.branch} does not match the pull request branch filter` };
  }
  const prefixed = event.forkOwner !== null && settings.prefix_pull_request_fork_branch_names !== false;
  return {
    build: {
      ...NO_EXTRAS,
      commit: event.commit,
      branch: prefixed ? `${event.forkOwner}:${event.branch}` : event.branch,
      message: event.message,
      author: event.author,
      pullRequest: { id: String(event.number), base: event.base, repository: event.repository },
    },
  };
}

const NO_EXTRAS = { cleanCheckout: false, env: {}, metaData: {} } as const;

/** Opening, pushing to and reopening a pull request build it; being made ready or relabelled when a setting says. */
function buildsPullRequestAction(action: PullRequestAction, settings: Record<string, unknown>): boolean {
  switch (action) {
    case 'opened':
    case 'updated':
    case 'reopened':
      return true;
    case 'ready_for_review':
      return settings.build_pull_request_ready_for_review === true;
    case 'labels_changed':
      return settings.build_pull_request_labels_changed === true;
    case 'closed':
    case 'other':
      return false;
  }
}

function textSetting(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * The generic JSON form: the create-build body (`commit` defaults to `HEAD`, `branch` to the default
 * branch); `trigger_mode` `none` and the branch filter apply as to host events.
 */
export function genericWebhookFields(
  pipeline: WebhookPipeline,
  body: Record<string, unknown>,
): { body: Record<string, unknown> } | { skip: string } {
  const settings = presentableProviderSettings(pipeline.provider.settings, pipeline.repository);
  if (settings.trigger_mode === 'none') return { skip: 'trigger_mode is none' };
  const branch = body.branch ?? pipeline.defaultBranch ?? 'main';
  if (typeof branch === 'string' && !matchesBranchFilter(pipeline.branchConfiguration, branch)) {
    return { skip: `${branch} does not match the branch filter` };
  }
  // What decides the build's branch filter here is the rule above, not the body.
  const { ignore_pipeline_branch_filters: _ignored, ...rest } = body;
  return { body: { ...rest, commit: body.commit ?? 'HEAD', branch } };
}

/**
 * Which earlier builds of the branch a new webhook build supersedes: still-scheduled ones are skipped
 * (`skip_queued_branch_builds`), running ones canceled (`cancel_running_branch_builds`), each limited to the
 * branches its filter matches (none: every branch).
 */
export function supersededBuildRules(
  pipeline: Pick<
    Pipeline,
    | 'skipQueuedBranchBuilds'
    | 'skipQueuedBranchBuildsFilter'
    | 'cancelRunningBranchBuilds'
    | 'cancelRunningBranchBuildsFilter'
  >,
  branch: string,
): { skipQueued: boolean; cancelRunning: boolean } {
  return {
    skipQueued:
      pipeline.skipQueuedBranchBuilds && matchesBranchFilter(pipeline.skipQueuedBranchBuildsFilter, branch),
    cancelRunning:
      pipeline.cancelRunningBranchBuilds &&
      matchesBranchFilter(pipeline.cancelRunningBranchBuildsFilter, branch),
  };
}

/** A delivery whose signature (GitHub, Bitbucket, generic) or token (GitLab) is missing or wrong: 401. */
export function webhookSignatureInvalid(): DomainError {
  return new DomainError({
    kind: 'unauthenticated',
    code: 'webhook_signature_invalid',
    message: 'Webhook signature does not match',
  });
}

/**
 * An earlier build of the branch, superseded by a new one: a scheduled build is skipped, a running one
 * canceled, with the jobs no agent finished canceled; null when the build moved on meanwhile.
 */
export function supersede(
  work: { build: BuildSnapshot; jobs: readonly Job[] },
  how: 'skip' | 'cancel',
  at: Date,
): { build: BuildSnapshot; jobs: Job[]; changed: Set<string> } | null {
  const trigger =
    how === 'skip'
      ? ({ type: 'skip' } as const)
      : ({ type: 'cancel', reason: 'superseded by a newer build of its branch' } as const);
  const stopped = stopBuild({ ...work, at, trigger });
  return stopped.ok ? stopped.value : null;
}
