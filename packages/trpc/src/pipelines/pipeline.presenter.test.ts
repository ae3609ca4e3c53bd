import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PipelineResult } from '@ci/application';
import { type Pipeline, PROVIDER_SETTING_DEFAULTS, type StepDefinition } from '@ci/domain';
import { pipelineWith } from '@ci/domain/pipeline.fixture';
import { describe, expect, it } from 'vitest';
import { legacyStep, presentPipeline, presentPipelines } from './pipeline.presenter';
import { PipelineWire } from './pipeline.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const example = (file: string): Json => {
  const body: unknown = JSON.parse(readFileSync(`${EXAMPLES}/${file}`, 'utf8'));
  return (Array.isArray(body) ? body[0] : body) as Json;
};

const URLS = { api: 'https://api.ci.test', web: 'https://ci.test' };
const CREATE = example('pipelines-create.json');
/**
 * Where the recorded responses (test/fixtures/recorded) show another form than the create example, they
 * win (decisions.md): `''` for no description and for a step's unset paths and filters, `emoji` and
 * `color`, and two more GitHub settings.
 */
const RECORDED_FORMS = {
  description: '',
  emoji: null,
  color: null,
  settings: { build_pull_request_base_branch_changed: false, build_merge_group_checks_requested: false },
  step: { artifact_paths: '', branch_configuration: '' },
};
const withoutRecordedKeys = (keys: string[]) => keys.filter((key) => key !== 'emoji' && key !== 'color');
const withoutRecordedSettings = (keys: string[]) =>
  keys.filter((key) => !Object.keys(RECORDED_FORMS.settings).includes(key));

/** The create example's pipeline as the domain holds it. */
const pipeline: Pipeline & { counts: PipelineResult['record']['pipeline']['counts'] } = {
  ...pipelineWith({
    id: 'ad93b461-96ab-4a1e-9281-260ead506a0e',
    organizationId: '0190f3a0-2222-7abc-8def-0123456789ab',
    slug: 'my-pipeline-x',
    name: 'My Pipeline X',
    repository: 'git@github.com:acme-inc/my-pipeline.git',
    steps: [
      {
        type: 'command',
        id: 's1',
        key: null,
        label: 'Build :package:',
        command: 'script/release.sh',
        env: {},
        agentQueryRules: [],
        softFail: false,
        parallelism: null,
        retry: null,
        artifactPaths: null,
      },
    ],
    provider: {
      id: 'github',
      settings: { ...PROVIDER_SETTING_DEFAULTS, repository: 'acme-inc/my-pipeline' },
    },
    webhookToken: 'fe08e0f823297a158fc4ca2bfddd6ea3ced92b5167a658a0bb',
    nextBuildNumber: 1,
    createdAt: new Date('2021-05-06T14:54:21.088Z'),
    env: { FOO: 'bar' },
    configuration: CREATE.configuration as string,
    createdById: '3cc415b8-3d63-4b9a-acb0-c120dbcb231c',
  }),
  counts: {
    scheduledBuildsCount: 0,
    runningBuildsCount: 0,
    scheduledJobsCount: 0,
    runningJobsCount: 0,
    waitingJobsCount: 0,
  },
};

const result: PipelineResult = {
  record: {
    pipeline,
    createdBy: {
      id: '3cc415b8-3d63-4b9a-acb0-c120dbcb231c',
      name: 'Sam Wright',
      email: 'sam@example.com',
      avatarUrl: 'https://www.gravatar.com/avatar/3536621b97b6d9d39488202709317051',
      createdAt: new Date('2020-02-14T16:57:23.153Z'),
    },
  },
  organizationSlug: 'acme-inc',
  showWebhookUrl: true,
};

const withPipeline = (changes: Partial<Pipeline>): PipelineResult => ({
  ...result,
  record: { ...result.record, pipeline: { ...pipeline, ...changes } },
});

describe('presentPipeline', () => {
  it('has the keys of the create example, in its order, at every level', () => {
    const presented = presentPipeline(result, URLS) as unknown as Json;
    expect(withoutRecordedKeys(Object.keys(presented))).toEqual(Object.keys(CREATE));
    const provider = presented.provider as Json;
    const exampleProvider = CREATE.provider as Json;
    expect(Object.keys(provider)).toEqual(Object.keys(exampleProvider));
    expect(withoutRecordedSettings(Object.keys(provider.settings as Json))).toEqual(
      Object.keys(exampleProvider.settings as Json),
    );
    expect(Object.keys(presented.created_by as Json)).toEqual(Object.keys(CREATE.created_by as Json));
    expect(Object.keys((presented.steps as Json[])[0]!)).toEqual(Object.keys((CREATE.steps as Json[])[0]!));
  });

  it('matches every value of the create example but the addresses, which are ours, and the recorded forms', () => {
    const omit = ({ url: _u, web_url: _w, builds_url: _b, badge_url: _g, provider, ...rest }: Json) => ({
      ...rest,
      provider: { ...(provider as Json), webhook_url: undefined },
    });
    const { settings, step, ...forms } = RECORDED_FORMS;
    const provider = CREATE.provider as Json;
    const expected = {
      ...CREATE,
      ...forms,
      provider: { ...provider, settings: { ...(provider.settings as Json), ...settings } },
      steps: (CREATE.steps as Json[]).map((exampleStep) => ({ ...exampleStep, ...step })),
    };
    expect(omit(presentPipeline(result, URLS) as unknown as Json)).toEqual(omit(expected));
  });

  it('builds the addresses on the configured URLs with the patterns of the examples', () => {
    const presented = presentPipeline(result, URLS);
    const swap = (text: unknown) =>
      String(text).replace('https://api.buildkite.com', URLS.api).replace('https://buildkite.com', URLS.web);
    expect(presented.url).toBe(swap(CREATE.url));
    expect(presented.web_url).toBe(swap(CREATE.web_url));
    expect(presented.builds_url).toBe(swap(CREATE.builds_url));
    expect(presented.badge_url).toBe(`${URLS.api}/badges/${pipeline.id}.svg`);
    expect(presented.provider.webhook_url).toBe(`${URLS.api}/webhooks/deliver/${pipeline.webhookToken}`);
  });

  it('encodes graphql_id as the example does', () => {
    expect(presentPipeline(result, URLS).graphql_id).toBe(CREATE.graphql_id);
  });

  it('hides the webhook URL from viewers who may not edit the pipeline (rule B2)', () => {
    const presented = presentPipeline({ ...result, showWebhookUrl: false }, URLS);
    expect(presented.provider.webhook_url).toBe('');
    // The badge names the pipeline, never the webhook's secret token.
    expect(presented.badge_url).not.toContain(pipeline.webhookToken);
  });

  it('leaves configuration out for a pipeline defined by steps, as the real archive recording does', () => {
    const archived = example('real-2022-pipelines-archive.json');
    const presented = presentPipeline(
      withPipeline({ configuration: null, archivedAt: new Date('2022-02-23T21:52:17.480Z') }),
      URLS,
    );
    expect(withoutRecordedKeys(Object.keys(presented))).toEqual(
      Object.keys(CREATE).filter((key) => key !== 'configuration'),
    );
    // The recording predates pipeline templates; otherwise the keys are the same, in the same order.
    expect(
      withoutRecordedKeys(Object.keys(presented)).filter((key) => key !== 'pipeline_template_uuid'),
    ).toEqual(Object.keys(archived));
    expect(presented.archived_at).toBe('2022-02-23T21:52:17.480Z');
  });

  it('has every key of the (older) list example', () => {
    const presented = presentPipeline(result, URLS) as unknown as Json;
    for (const key of Object.keys(example('pipelines-list.json'))) expect(presented).toHaveProperty(key);
  });

  it('shows created_by null for a pipeline made by an operator command', () => {
    expect(
      presentPipeline({ ...result, record: { ...result.record, createdBy: null } }, URLS).created_by,
    ).toBe(null);
  });

  it('fills provider settings an older pipeline did not store', () => {
    const presented = presentPipeline(withPipeline({ provider: { id: 'git', settings: {} } }), URLS);
    expect(presented.provider.settings).toEqual({
      ...PROVIDER_SETTING_DEFAULTS,
      repository: 'acme-inc/my-pipeline',
    });
  });

  it('gives what the wire schema accepts', () => {
    const presented = presentPipeline(result, URLS);
    expect(PipelineWire.parse(presented)).toEqual(presented);
  });
});

describe('legacyStep', () => {
  it.each<[string, StepDefinition, Json]>([
    [
      'a command step as script',
      {
        type: 'command',
        id: 's',
        key: 'test',
        label: 'Test',
        command: 'make test',
        env: { CI: 'true' },
        agentQueryRules: ['queue=linux'],
        softFail: true,
        parallelism: 3,
        retry: { automatic: 2 },
        artifactPaths: 'log/*',
      },
      {
        type: 'script',
        name: 'Test',
        command: 'make test',
        artifact_paths: 'log/*',
        branch_configuration: '',
        env: { CI: 'true' },
        timeout_in_minutes: null,
        agent_query_rules: ['queue=linux'],
        concurrency: null,
        parallelism: 3,
      },
    ],
    [
      "a command step's branches and timeout",
      {
        type: 'command',
        id: 's',
        key: null,
        label: null,
        command: 'x',
        env: {},
        agentQueryRules: [],
        softFail: false,
        parallelism: null,
        retry: null,
        artifactPaths: null,
        branches: 'main release/*',
        timeoutInMinutes: 30,
      },
      {
        type: 'script',
        name: null,
        command: 'x',
        artifact_paths: '',
        branch_configuration: 'main release/*',
        env: {},
        timeout_in_minutes: 30,
        agent_query_rules: [],
        concurrency: null,
        parallelism: null,
      },
    ],
    [
      'a wait step as waiter',
      { type: 'wait', id: 's', key: null, continueOnFailure: true },
      { type: 'waiter' },
    ],
    [
      'a block step as manual',
      { type: 'block', id: 's', key: 'ok', label: 'Deploy' },
      { type: 'manual', label: 'Deploy' },
    ],
  ])('shows %s, as the visual step example does', (_case, step, wire) => {
    expect(legacyStep(step)).toEqual(wire);
  });
});

describe('presentPipelines', () => {
  it('keeps the order it is given', () => {
    const other = withPipeline({ id: '0191df84-85e4-77aa-83ba-000000000000', slug: 'other' });
    expect(presentPipelines([result, other], URLS).map((p) => p.slug)).toEqual(['my-pipeline-x', 'other']);
  });
});
