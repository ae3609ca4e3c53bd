import { createHash } from 'node:crypto';
import { type ProviderSettings, presentableProviderSettings, repositoryWebUrl } from '@ci/domain';
import { builder } from '../builder';
import { type PipelineNode, webhookUrlOf } from './pipeline-node';

/** A pipeline's repository: its URL, and the provider its host names. */
export interface RepositoryShape {
  url: string;
  pipeline: PipelineNode;
}

/** The provider of a pipeline's repository; `webhookUrl` follows rule B2, as `Pipeline.webhookURL`. */
export interface ProviderShape {
  pipeline: PipelineNode;
  settings: ProviderSettings;
}

/** A setting's GraphQL name and type; the stored key is its snake_case name. */
type SettingKind = 'Boolean!' | 'Boolean' | 'String!' | 'String' | 'CommandWordMatchMode';

const CommandWordMatchMode = builder.enumType('CommandWordMatchMode', {
  description: 'How a comment must name the command word to start a build',
  values: {
    CONTAINS: { value: 'contains', description: 'The comment contains the command word' },
    EXACT: { value: 'exact', description: 'The comment is the command word' },
  } as const,
});

function matchModeSetting(settings: ProviderSettings, key: string): 'contains' | 'exact' | null {
  const value = textSetting(settings, key)?.toLowerCase();
  return value === 'contains' || value === 'exact' ? value : null;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const SettingsInterface = builder.interfaceRef<ProviderSettings>('RepositoryProviderSettings').implement({
  fields: (t) => ({
    filterCondition: t.string({
      nullable: true,
      resolve: (settings) => textSetting(settings, 'filter_condition'),
    }),
    filterEnabled: t.boolean({ nullable: true, resolve: (settings) => settings.filter_enabled === true }),
  }),
});

function textSetting(settings: ProviderSettings, key: string): string | null {
  const value = settings[key];
  return typeof value === 'string' ? value : null;
}

/** A settings type whose fields read the stored settings (as REST shows them: defaults filled in). */
function settingsType(name: string, fields: Record<string, SettingKind>) {
  return builder.objectRef<ProviderSettings>(name).implement({
    interfaces: [SettingsInterface],
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields).map(([field, kind]) => {
          const key = snakeCase(field);
          const nullable = !kind.endsWith('!');
          if (kind === 'CommandWordMatchMode') {
            return [
              field,
              t.field({
                type: CommandWordMatchMode,
                nullable: true,
                resolve: (settings) => matchModeSetting(settings, key),
              }),
            ];
          }
          return [
            field,
            kind.startsWith('Boolean')
              ? t.boolean({ nullable, resolve: (settings) => settings[key] === true })
              : nullable
                ? t.string({ nullable: true, resolve: (settings) => textSetting(settings, key) })
                : t.string({ nullable: false, resolve: (settings) => textSetting(settings, key) ?? '' }),
          ];
        }),
      ),
  });
}

const FILTER: Record<string, SettingKind> = { filterCondition: 'String', filterEnabled: 'Boolean' };

/**
 * GitHub's settings as the public schema names them; REST's `provider_settings` stores them, and one
 * never set reads false (or null).
 */
const GITHUB_SETTINGS: Record<string, SettingKind> = {
  ...FILTER,
  triggerMode: 'String!',
  buildPullRequests: 'Boolean!',
  pullRequestBranchFilterEnabled: 'Boolean!',
  pullRequestBranchFilterConfiguration: 'String',
  skipBuildsForExistingCommits: 'Boolean!',
  skipPullRequestBuildsForExistingCommits: 'Boolean!',
  buildPullRequestReadyForReview: 'Boolean!',
  buildPullRequestLabelsChanged: 'Boolean!',
  buildPullRequestForks: 'Boolean!',
  prefixPullRequestForkBranchNames: 'Boolean!',
  buildBranches: 'Boolean!',
  buildTags: 'Boolean!',
  cancelDeletedBranchBuilds: 'Boolean!',
  publishCommitStatus: 'Boolean!',
  publishCommitStatusPerStep: 'Boolean!',
  separatePullRequestStatuses: 'Boolean!',
  publishBlockedAsPending: 'Boolean!',
  useStepKeyAsCommitStatus: 'Boolean!',
  buildPullRequestBaseBranchChanged: 'Boolean!',
  buildMergeGroupChecksRequested: 'Boolean!',
  cancelWhenMergeGroupDestroyed: 'Boolean!',
  useMergeGroupBaseCommitForGitDiffBase: 'Boolean!',
  buildCheckRunCompleted: 'Boolean!',
  buildCreateEvent: 'Boolean!',
  buildDeploymentStatusCreated: 'Boolean!',
  buildIssueCommentCreated: 'Boolean!',
  buildPullRequestConvertedToDraft: 'Boolean!',
  buildPullRequestDequeued: 'Boolean!',
  buildPullRequestEdited: 'Boolean!',
  buildPullRequestMergeCommits: 'Boolean!',
  buildPullRequestReopened: 'Boolean!',
  buildPullRequestReviewCommentCreated: 'Boolean!',
  buildPullRequestReviewDismissed: 'Boolean!',
  buildPullRequestReviewRequested: 'Boolean!',
  buildPullRequestReviewSubmitted: 'Boolean!',
  buildPullRequestStacks: 'Boolean!',
  buildReleaseCreated: 'Boolean!',
  buildReleasePublished: 'Boolean!',
  buildReleaseReleased: 'Boolean!',
  githubWebhooksDisabled: 'Boolean!',
  ignoreDefaultBranchPullRequests: 'Boolean!',
  issueCommentCommandWord: 'String',
  issueCommentMatchMode: 'CommandWordMatchMode',
  reviewCommentCommandWord: 'String',
  reviewCommentMatchMode: 'CommandWordMatchMode',
};

const GitHubSettings = settingsType('RepositoryProviderGitHubSettings', GITHUB_SETTINGS);
const GitHubEnterpriseSettings = settingsType('RepositoryProviderGitHubEnterpriseSettings', GITHUB_SETTINGS);

const BitbucketSettings = settingsType('RepositoryProviderBitbucketSettings', {
  ...FILTER,
  buildBranches: 'Boolean!',
  buildPullRequests: 'Boolean!',
  buildTags: 'Boolean!',
  cancelDeletedBranchBuilds: 'Boolean',
  publishCommitStatus: 'Boolean!',
  publishCommitStatusPerStep: 'Boolean!',
  pullRequestBranchFilterConfiguration: 'String',
  pullRequestBranchFilterEnabled: 'Boolean!',
  skipBuildsForExistingCommits: 'Boolean',
  skipPullRequestBuildsForExistingCommits: 'Boolean!',
  ignoreDefaultBranchPullRequests: 'Boolean!',
});

const BRANCHES_AND_TAGS: Record<string, SettingKind> = {
  ...FILTER,
  buildBranches: 'Boolean!',
  buildPullRequests: 'Boolean!',
  buildTags: 'Boolean!',
};

const BitbucketServerSettings = settingsType('RepositoryProviderBitbucketServerSettings', BRANCHES_AND_TAGS);
const CursorOriginSettings = settingsType('RepositoryProviderCursorOriginSettings', {
  ...BRANCHES_AND_TAGS,
  publishCommitStatus: 'Boolean!',
});
const GitlabSettings = settingsType('RepositoryProviderGitlabSettings', FILTER);
const BeanstalkSettings = settingsType('RepositoryProviderBeanstalkSettings', FILTER);
const CodebaseSettings = settingsType('RepositoryProviderCodebaseSettings', FILTER);
const UnknownSettings = settingsType('RepositoryProviderUnknownSettings', FILTER);

const RepositoryProvider = builder.interfaceRef<ProviderShape>('RepositoryProvider').implement({
  description: "The provider of a pipeline's repository",
  resolveType: (shape) => providerKind(shape.pipeline).type,
  fields: (t) => ({
    name: t.string({ nullable: false, resolve: ({ pipeline }) => providerKind(pipeline).name }),
    url: t.string({
      nullable: true,
      description: "The repository's page on the provider's site; null for a host this service does not know",
      resolve: ({ pipeline }) => repositoryWebUrl(pipeline.pipeline.provider),
    }),
    webhookUrl: t.string({
      nullable: true,
      description: 'As `Pipeline.webhookURL`: for users who may edit the pipeline (rule B2), otherwise null',
      resolve: ({ pipeline }, _args, ctx) => webhookUrlOf(pipeline, ctx),
    }),
  }),
});

const PROVIDERS = {
  github: { type: 'RepositoryProviderGithub', name: 'GitHub', settings: GitHubSettings },
  gitlab: { type: 'RepositoryProviderGitlab', name: 'GitLab', settings: GitlabSettings },
  bitbucket: { type: 'RepositoryProviderBitbucket', name: 'Bitbucket', settings: BitbucketSettings },
  git: { type: 'RepositoryProviderUnknown', name: 'Other', settings: UnknownSettings },
} as const;

/**
 * The public schema's other providers: hosts this service does not tell apart (self-hosted GitHub,
 * GitLab and Bitbucket among them) show as `RepositoryProviderUnknown`, so nothing resolves to these.
 */
const OTHER_PROVIDERS = [
  { type: 'RepositoryProviderGithubEnterprise', settings: GitHubEnterpriseSettings },
  { type: 'RepositoryProviderBitbucketServer', settings: BitbucketServerSettings },
  { type: 'RepositoryProviderGitlabCommunity', settings: GitlabSettings },
  { type: 'RepositoryProviderGitlabEnterprise', settings: GitlabSettings },
  { type: 'RepositoryProviderBeanstalk', settings: BeanstalkSettings },
  { type: 'RepositoryProviderCodebase', settings: CodebaseSettings },
  { type: 'RepositoryProviderCursorOrigin', settings: CursorOriginSettings },
] as const;

function providerKind(pipeline: PipelineNode) {
  const id = pipeline.pipeline.provider.id;
  return id in PROVIDERS ? PROVIDERS[id as keyof typeof PROVIDERS] : PROVIDERS.git;
}

/** A pipeline's inbound webhook (its `webhookURL`), as GitHub's hook is in the public schema. */
export interface WebhookShape {
  pipeline: PipelineNode;
  url: string;
  token: string;
}

/** A webhook's stable public name: not its secret token, but derived from it (a new token, a new id). */
export function webhookExternalId(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 20);
}

export const RepositoryProviderWebhook = builder
  .interfaceRef<WebhookShape>('RepositoryProviderWebhook')
  .implement({
    description: "A pipeline's inbound webhook: where source hosts deliver events",
    // Only GitHub's kinds are in the public schema; every provider's hook is shown as GitHub's.
    resolveType: () => 'RepositoryProviderGithubWebhook',
    fields: (t) => ({
      externalId: t.string({
        nullable: false,
        description: 'A stable id of the webhook, derived from (not revealing) its token',
        resolve: (hook) => webhookExternalId(hook.token),
      }),
      url: t.exposeString('url', { nullable: false }),
      provider: t.field({
        type: RepositoryProvider,
        nullable: false,
        resolve: ({ pipeline }) => providerOf(pipeline),
      }),
    }),
  });

const WEBHOOK_TYPES = {
  RepositoryProviderGithub: 'RepositoryProviderGithubWebhook',
  RepositoryProviderGithubEnterprise: 'RepositoryProviderGithubEnterpriseWebhook',
} as const;
const webhookTypes = Object.fromEntries(
  Object.entries(WEBHOOK_TYPES).map(([provider, name]) => [
    provider,
    builder.objectRef<WebhookShape>(name).implement({ interfaces: [RepositoryProviderWebhook] }),
  ]),
);

/** The pipeline's webhook for who may see its URL (rule B2); null otherwise, or when it has none. */
async function webhookOf(pipeline: PipelineNode, ctx: Parameters<typeof webhookUrlOf>[1]) {
  const url = await webhookUrlOf(pipeline, ctx);
  const token = pipeline.pipeline.webhookToken;
  return url && token ? { pipeline, url, token } : null;
}

for (const { type, settings } of [...Object.values(PROVIDERS), ...OTHER_PROVIDERS]) {
  const webhookType = webhookTypes[type];
  builder.objectRef<ProviderShape>(type).implement({
    interfaces: [RepositoryProvider],
    fields: (t) => ({
      settings: t.field({ type: settings, nullable: true, resolve: (shape) => shape.settings }),
      ...(webhookType && {
        webhook: t.field({
          type: webhookType,
          nullable: true,
          description: "The pipeline's inbound webhook, for who may edit the pipeline (rule B2)",
          resolve: ({ pipeline }, _args, ctx) => webhookOf(pipeline, ctx),
        }),
      }),
    }),
  });
}

function providerOf(pipeline: PipelineNode): ProviderShape {
  return {
    pipeline,
    settings: presentableProviderSettings(pipeline.pipeline.provider.settings, pipeline.pipeline.repository),
  };
}

export const Repository = builder.objectRef<RepositoryShape>('Repository').implement({
  description: 'A repository associated with a pipeline',
  fields: (t) => ({
    url: t.exposeString('url', { nullable: false }),
    provider: t.field({
      type: RepositoryProvider,
      nullable: true,
      resolve: ({ pipeline }) => providerOf(pipeline),
    }),
  }),
});
