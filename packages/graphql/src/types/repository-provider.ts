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
type SettingKind = 'Boolean!' | 'Boolean' | 'String!' | 'String';

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

/** The GitHub settings this service stores (REST's `provider_settings`); the others are left out. */
const GitHubSettings = settingsType('RepositoryProviderGitHubSettings', {
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
});

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
});

const GitlabSettings = settingsType('RepositoryProviderGitlabSettings', FILTER);
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

function providerKind(pipeline: PipelineNode) {
  const id = pipeline.pipeline.provider.id;
  return id in PROVIDERS ? PROVIDERS[id as keyof typeof PROVIDERS] : PROVIDERS.git;
}

for (const { type, settings } of Object.values(PROVIDERS)) {
  builder.objectRef<ProviderShape>(type).implement({
    interfaces: [RepositoryProvider],
    fields: (t) => ({
      settings: t.field({ type: settings, nullable: true, resolve: (shape) => shape.settings }),
    }),
  });
}

export const Repository = builder.objectRef<RepositoryShape>('Repository').implement({
  description: 'A repository associated with a pipeline',
  fields: (t) => ({
    url: t.exposeString('url', { nullable: false }),
    provider: t.field({
      type: RepositoryProvider,
      nullable: true,
      resolve: ({ url, pipeline }) => ({
        pipeline,
        settings: presentableProviderSettings(pipeline.pipeline.provider.settings, url),
      }),
    }),
  }),
});
