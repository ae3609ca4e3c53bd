import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';
import { appRouter } from './router';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; description?: string }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { headers?: Json; content?: Record<string, { schema: Json }> }>;
  security?: Array<Record<string, string[]>>;
};

const document = JSON.parse(
  JSON.stringify(openApiDocument(appRouter, { baseUrl: 'http://localhost:3000/v2' })),
) as Json & {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);
const operation = (method: string, path: string) => {
  const found = document.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
};

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (!value || typeof value !== 'object') return [];
  const own = typeof (value as Json).$ref === 'string' ? [(value as Json).$ref as string] : [];
  return [...own, ...Object.values(value).flatMap(refsIn)];
}

const BUILD = '/organizations/{organization}/pipelines/{pipeline}/builds/{number}';
const LISTS = [
  ['GET', '/builds'],
  ['GET', '/organizations/{organization}/builds'],
  ['GET', '/organizations/{organization}/pipelines/{pipeline}/builds'],
] as const;
const BUILD_OPERATIONS = [
  ...LISTS.map(([method, path]) => [method, path, '200', 'list', 'read_builds'] as const),
  ['GET', BUILD, '200', 'one', 'read_builds'],
  ['POST', '/organizations/{organization}/pipelines/{pipeline}/builds', '201', 'one', 'write_builds'],
  ['PUT', `${BUILD}/cancel`, '200', 'one', 'write_builds'],
  ['PUT', `${BUILD}/rebuild`, '200', 'one', 'write_builds'],
] as const;
const REGISTRIES = '/packages/organizations/{organization}/registries';
const REGISTRY = `${REGISTRIES}/{registry}`;
/** method, path, the success body (a list, one registry, or none) and the scope */
const REGISTRY_OPERATIONS = [
  ['GET', REGISTRIES, 'list', 'read_registries'],
  ['POST', REGISTRIES, 'one', 'create_registries'],
  ['GET', REGISTRY, 'one', 'read_registries'],
  ['POST', REGISTRY, 'one', 'write_registries'],
  ['PATCH', REGISTRY, 'one', 'write_registries'],
  ['PUT', REGISTRY, 'one', 'write_registries'],
  ['DELETE', REGISTRY, 'none', 'delete_registries'],
] as const;

const PIPELINES = '/organizations/{organization}/pipelines';
const PIPELINE = `${PIPELINES}/{pipeline}`;
/** method, path, success status, the success body (a list, one pipeline, or none) and the scope */
const PIPELINE_OPERATIONS = [
  ['GET', PIPELINES, '200', 'list', 'read_pipelines'],
  ['POST', PIPELINES, '201', 'one', 'write_pipelines'],
  ['GET', PIPELINE, '200', 'one', 'read_pipelines'],
  ['PATCH', PIPELINE, '200', 'one', 'write_pipelines'],
  ['DELETE', PIPELINE, '204', 'none', 'write_pipelines'],
  ['POST', `${PIPELINE}/archive`, '200', 'one', 'write_pipelines'],
  ['POST', `${PIPELINE}/unarchive`, '200', 'one', 'write_pipelines'],
  ['POST', `${PIPELINE}/webhook`, '200', 'one', 'write_pipelines'],
  ['DELETE', `${PIPELINE}/webhook`, '204', 'none', 'write_pipelines'],
] as const;
const isPipelineOperation = (method: string, path: string) =>
  PIPELINE_OPERATIONS.some(([m, p]) => m === method && p === path);
const ORGANIZATION = '/organizations/{organization}';
/** method, path, success status, the success body's component (a list of it, or none), and the scope ('' none) */
const IDENTITY_OPERATIONS = [
  ['GET', '/access-token', '200', 'AccessToken', ''],
  ['DELETE', '/access-token', '204', null, ''],
  ['GET', '/user', '200', 'User', 'read_user'],
  ['GET', '/organizations', '200', 'Organization[]', 'read_organizations'],
  ['GET', ORGANIZATION, '200', 'Organization', 'read_organizations'],
  ['GET', `${ORGANIZATION}/members`, '200', 'OrganizationMember[]', 'read_organizations'],
] as const;
const isIdentity = (method: string, path: string) =>
  IDENTITY_OPERATIONS.some(([m, p]) => m === method && p === path);
const AGENTS = `${ORGANIZATION}/agents`;
const AGENT = `${AGENTS}/{agent}`;
/** method, path, success status, the success body (a list, one agent, or none), the request body and the scope */
const AGENT_OPERATIONS = [
  ['GET', AGENTS, '200', 'list', null, 'read_agents'],
  ['GET', AGENT, '200', 'one', null, 'read_agents'],
  ['PUT', `${AGENT}/stop`, '204', 'none', 'StopAgentRequest', 'write_agents'],
  ['PUT', `${AGENT}/pause`, '204', 'none', 'PauseAgentRequest', 'write_agents'],
  ['PUT', `${AGENT}/resume`, '204', 'none', null, 'write_agents'],
] as const;
const CLUSTERS = `${ORGANIZATION}/clusters`;
const CLUSTER = `${CLUSTERS}/{cluster}`;
const QUEUE = `${CLUSTER}/queues/{queue}`;
const CLUSTER_TOKEN = `${CLUSTER}/tokens/{token}`;
/** method, path, success status, the success body's component (a list of it, or none), and the scope */
const CLUSTER_OPERATIONS = [
  ['GET', CLUSTERS, '200', 'Cluster[]', 'read_clusters'],
  ['POST', CLUSTERS, '201', 'Cluster', 'write_clusters'],
  ['GET', CLUSTER, '200', 'Cluster', 'read_clusters'],
  ['PATCH', CLUSTER, '200', 'Cluster', 'write_clusters'],
  ['DELETE', CLUSTER, '204', null, 'write_clusters'],
  ['GET', `${CLUSTER}/queues`, '200', 'ClusterQueue[]', 'read_clusters'],
  ['POST', `${CLUSTER}/queues`, '201', 'ClusterQueue', 'write_clusters'],
  ['GET', QUEUE, '200', 'ClusterQueue', 'read_clusters'],
  ['PATCH', QUEUE, '200', 'ClusterQueue', 'write_clusters'],
  ['DELETE', QUEUE, '204', null, 'write_clusters'],
  ['POST', `${QUEUE}/pause_dispatch`, '200', 'ClusterQueue', 'write_clusters'],
  ['POST', `${QUEUE}/resume_dispatch`, '200', 'ClusterQueue', 'write_clusters'],
  ['GET', `${CLUSTER}/tokens`, '200', 'ClusterToken[]', 'read_clusters'],
  ['POST', `${CLUSTER}/tokens`, '201', 'ClusterToken', 'write_clusters'],
  ['GET', CLUSTER_TOKEN, '200', 'ClusterToken', 'read_clusters'],
  ['PATCH', CLUSTER_TOKEN, '200', 'ClusterToken', 'write_clusters'],
  ['DELETE', CLUSTER_TOKEN, '204', null, 'write_clusters'],
] as const;

const SERVICES = '/organizations/{organization}/services';
const SERVICE = `${SERVICES}/{service}`;
const SERVICE_OPERATIONS = [
  ['GET', SERVICES, '200', 'NotificationService[]', 'read_notification_services'],
  ['POST', SERVICES, '201', 'NotificationService', 'write_notification_services'],
  ['GET', SERVICE, '200', 'NotificationService', 'read_notification_services'],
  ['PATCH', SERVICE, '200', 'NotificationService', 'write_notification_services'],
  ['PUT', SERVICE, '200', 'NotificationService', 'write_notification_services'],
  ['DELETE', SERVICE, '204', null, 'write_notification_services'],
  ['GET', `${SERVICE}/deliveries`, '200', 'NotificationDelivery[]', 'read_notification_services'],
  ['POST', `${SERVICE}/ping`, '201', 'NotificationDelivery', 'write_notification_services'],
] as const;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with one server at the given base URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'http://localhost:3000/v2' }]);
  });

  it('documents exactly the builds operations of the spec', () => {
    expect(
      operations
        .filter(({ path }) => !path.startsWith('/packages/') && !path.includes('/teams'))
        .filter(({ path }) => !path.includes('/jobs/') && !path.startsWith(AGENTS))
        .filter(({ path }) => !path.includes('/annotations'))
        .filter(({ method, path }) => !isPipelineOperation(method, path))
        .filter(({ method, path }) => !isIdentity(method, path))
        .filter(({ path }) => !path.startsWith(CLUSTERS))
        .filter(({ path }) => !path.endsWith('/artifacts'))
        .filter(({ path }) => !path.startsWith(SERVICES))
        .filter(({ path }) => !path.includes('/triggers'))
        .filter(({ path }) => !path.includes('/schedules'))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(BUILD_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each([
    ['GET', `${BUILD}/jobs/{job}/log`, 'JobLog', 'read_build_logs'],
    ['GET', `${BUILD}/jobs/{job}/log.txt`, 'JobLog', 'read_build_logs'],
    ['GET', `${BUILD}/jobs/{job}/env`, 'JobEnv', 'read_job_env'],
    ['PUT', `${BUILD}/jobs/{job}/retry`, 'Job', 'write_builds'],
    ['PUT', `${BUILD}/jobs/{job}/unblock`, 'UnblockedJob', 'write_builds'],
  ] as const)(
    'documents the job operation %s %s answering %s with scope %s',
    (method, path, component, scope) => {
      const { responses, security } = operation(method, path);
      expect(JSON.stringify(responses['200'])).toContain(`#/components/schemas/${component}`);
      expect(JSON.stringify(security)).toContain(scope);
    },
  );

  it.each([
    ['GET', `${BUILD}/annotations`, '200', 'read_builds'],
    ['POST', `${BUILD}/annotations`, '201', 'write_builds'],
    ['DELETE', `${BUILD}/annotations/{annotation}`, '204', 'write_builds'],
  ] as const)(
    'documents the annotation operation %s %s answering %s with scope %s',
    (method, path, status, scope) => {
      const { responses, security, requestBody } = operation(method, path);
      expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
      if (status !== '204')
        expect(JSON.stringify(responses[status])).toContain('#/components/schemas/Annotation');
      expect(JSON.stringify(requestBody ?? null)).toBe(
        method === 'POST'
          ? JSON.stringify({
              required: true,
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/CreateAnnotationRequest' } },
              },
            })
          : 'null',
      );
      expect(JSON.stringify(security)).toContain(scope);
    },
  );

  it('documents the agents operations', () => {
    expect(
      operations
        .filter(({ path }) => path.startsWith(AGENTS))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(AGENT_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each(AGENT_OPERATIONS)('answers %s %s with %s, %s', (method, path, status, shape, body, scope) => {
    const { responses, security, requestBody } = operation(method, path);
    expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
    const expected = {
      list: { type: 'array', items: { $ref: '#/components/schemas/AgentResource' } },
      one: { $ref: '#/components/schemas/AgentResource' },
      none: undefined,
    }[shape];
    expect(responses[status]?.content?.['application/json']?.schema).toEqual(expected);
    expect(JSON.stringify(requestBody ?? null)).toBe(
      body
        ? JSON.stringify({
            required: false,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } },
          })
        : 'null',
    );
    expect(JSON.stringify(security)).toContain(scope);
  });

  it('documents the pipelines operations', () => {
    expect(
      operations
        .filter(
          ({ path }) =>
            path === PIPELINES ||
            (path.startsWith(`${PIPELINE}`) &&
              !path.includes('/builds') &&
              !path.includes('/triggers') &&
              !path.includes('/schedules')),
        )
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(PIPELINE_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each([
    ['GET', `${PIPELINE}/triggers`, '200', 'PipelineTriggerList', 'read_pipelines'],
    ['POST', `${PIPELINE}/triggers`, '201', 'PipelineTrigger', 'write_pipelines'],
    ['GET', `${PIPELINE}/triggers/{trigger}`, '200', 'PipelineTrigger', 'read_pipelines'],
    ['PATCH', `${PIPELINE}/triggers/{trigger}`, '200', 'PipelineTrigger', 'write_pipelines'],
    ['DELETE', `${PIPELINE}/triggers/{trigger}`, '204', null, 'write_pipelines'],
    ['GET', `${PIPELINE}/schedules`, '200', 'PipelineScheduleList', 'read_pipelines'],
    ['POST', `${PIPELINE}/schedules`, '201', 'PipelineSchedule', 'write_pipelines'],
    ['GET', `${PIPELINE}/schedules/{schedule}`, '200', 'PipelineSchedule', 'read_pipelines'],
    ['PATCH', `${PIPELINE}/schedules/{schedule}`, '200', 'PipelineSchedule', 'write_pipelines'],
    ['DELETE', `${PIPELINE}/schedules/{schedule}`, '204', null, 'write_pipelines'],
  ] as const)(
    'documents the pipeline trigger and schedule operation %s %s (%s, %s)',
    (method, path, status, shape, scope) => {
      const { responses, security } = operation(method, path);
      expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
      expect(responses[status]?.content?.['application/json']?.schema).toEqual(
        shape ? { $ref: `#/components/schemas/${shape}` } : undefined,
      );
      expect(security).toEqual([{ AccessToken: [scope] }]);
    },
  );

  it.each(PIPELINE_OPERATIONS)('answers %s %s with %s and %s', (method, path, status, shape, scope) => {
    const { responses, security, requestBody } = operation(method, path);
    expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
    const expected = {
      list: { type: 'array', items: { $ref: '#/components/schemas/Pipeline' } },
      one: { $ref: '#/components/schemas/Pipeline' },
      none: undefined,
    }[shape];
    expect(responses[status]?.content?.['application/json']?.schema).toEqual(expected);
    expect(security).toEqual([{ AccessToken: [scope] }]);
    const body = requestBody?.content['application/json']?.schema;
    if (method === 'POST' && path === PIPELINES) {
      expect(body).toEqual({ $ref: '#/components/schemas/CreatePipelineRequest' });
    } else if (method === 'PATCH') {
      expect(body).toEqual({ $ref: '#/components/schemas/UpdatePipelineRequest' });
    } else if (method === 'POST' && path.endsWith('/webhook')) {
      expect(body).toEqual({ $ref: '#/components/schemas/CreatePipelineWebhookRequest' });
    } else expect(body).toBeUndefined();
  });

  it('lists the keys of Pipeline in the order of the create example, and requires name and repository to create', () => {
    const pipeline = document.components.schemas?.Pipeline as { properties: Json; required: string[] };
    expect(Object.keys(pipeline.properties)).toEqual([
      'id',
      'graphql_id',
      'url',
      'web_url',
      'name',
      'description',
      'slug',
      'repository',
      'cluster_id',
      'pipeline_template_uuid',
      'branch_configuration',
      'default_branch',
      'skip_queued_branch_builds',
      'skip_queued_branch_builds_filter',
      'cancel_running_branch_builds',
      'cancel_running_branch_builds_filter',
      'allow_rebuilds',
      'provider',
      'builds_url',
      'badge_url',
      'created_by',
      'created_at',
      'archived_at',
      'env',
      'scheduled_builds_count',
      'running_builds_count',
      'scheduled_jobs_count',
      'running_jobs_count',
      'waiting_jobs_count',
      'visibility',
      'tags',
      'emoji',
      'color',
      'configuration',
      'steps',
    ]);
    expect(pipeline.required).not.toContain('configuration');
    expect(document.components.schemas?.CreatePipelineRequest).toMatchObject({
      required: ['name', 'repository'],
    });
    expect(document.components.schemas?.UpdatePipelineRequest).not.toHaveProperty('required');
  });

  it('documents exactly the registries operations, update under POST, PATCH and PUT', () => {
    expect(
      operations
        .filter(({ path }) => path.startsWith('/packages/'))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(REGISTRY_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each(REGISTRY_OPERATIONS)('answers %s %s with 200 and %s', (method, path, shape, scope) => {
    const { responses, security } = operation(method, path);
    expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual(['200']);
    const expected = {
      list: { type: 'array', items: { $ref: '#/components/schemas/Registry' } },
      one: { $ref: '#/components/schemas/Registry' },
      none: undefined,
    }[shape];
    expect(responses['200']?.content?.['application/json']?.schema).toEqual(expected);
    if (shape === 'none') expect(responses['200']?.content).toBeUndefined();
    expect(security).toEqual([{ AccessToken: [scope] }]);
  });

  it('documents the registry bodies as CreateRegistryRequest and UpdateRegistryRequest', () => {
    const body = (method: string, path: string) =>
      operation(method, path).requestBody?.content['application/json']?.schema;
    expect(body('POST', REGISTRIES)).toEqual({ $ref: '#/components/schemas/CreateRegistryRequest' });
    for (const method of ['POST', 'PATCH', 'PUT']) {
      expect(body(method, REGISTRY)).toEqual({ $ref: '#/components/schemas/UpdateRegistryRequest' });
    }
    expect(document.components.schemas?.CreateRegistryRequest).toMatchObject({
      required: ['name', 'ecosystem'],
    });
    expect(document.components.schemas?.UpdateRegistryRequest).not.toHaveProperty('required');
  });

  it('documents the pagination parameters of the registries list', () => {
    const query = (operation('GET', REGISTRIES).parameters ?? []).filter(
      (parameter) => parameter.in === 'query',
    );
    expect(query.map((parameter) => parameter.name)).toEqual(['page', 'per_page']);
    for (const parameter of query) expect(parameter.description, parameter.name).toBeTruthy();
  });

  it('lists the keys of Registry in the order of the public examples', () => {
    const registry = document.components.schemas?.Registry as { properties: Json };
    expect(Object.keys(registry.properties)).toEqual([
      'id',
      'graphql_id',
      'slug',
      'url',
      'web_url',
      'name',
      'ecosystem',
      'description',
      'emoji',
      'color',
      'public',
      'oidc_policy',
      'team_ids',
    ]);
  });

  it.each(BUILD_OPERATIONS)('answers %s %s with %s and a Build', (method, path, status, shape) => {
    const { responses } = operation(method, path);
    const successes = Object.keys(responses).filter((code) => code.startsWith('2'));
    expect(successes).toEqual([status]);
    const schema = responses[status]?.content?.['application/json']?.schema;
    expect(schema).toEqual(
      shape === 'list'
        ? { type: 'array', items: { $ref: '#/components/schemas/Build' } }
        : { $ref: '#/components/schemas/Build' },
    );
  });

  it.each(BUILD_OPERATIONS)(
    'asks %s %s for a bearer token with the scope of the operation',
    (method, path, ...rest) => {
      const scope = rest[2];
      const { security } = operation(method, path);
      expect(security).toEqual([{ AccessToken: [scope] }]);
      expect(document.components.securitySchemes?.AccessToken).toMatchObject({
        type: 'http',
        scheme: 'bearer',
      });
    },
  );

  it.each(IDENTITY_OPERATIONS)(
    'answers %s %s with %s and %s, asking for the scope %j',
    (method, path, status, body, scope) => {
      const { responses, security } = operation(method, path);
      expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
      const schema = responses[status]?.content?.['application/json']?.schema;
      if (body === null) expect(responses[status]?.content).toBeUndefined();
      else if (body.endsWith('[]'))
        expect(schema).toEqual({
          type: 'array',
          items: { $ref: `#/components/schemas/${body.slice(0, -2)}` },
        });
      else expect(schema).toEqual({ $ref: `#/components/schemas/${body}` });
      expect(security).toEqual([{ AccessToken: scope ? [scope] : [] }]);
    },
  );

  it('answers every error with the Error component', () => {
    for (const { operation: op } of operations) {
      const errors = Object.entries(op.responses).filter(([code]) => Number(code) >= 400 && code !== '429');
      expect(errors.map(([code]) => code)).toEqual(
        expect.arrayContaining(['401', '403', '404', '422', '500']),
      );
      for (const [, response] of errors) {
        expect(response.content).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
      }
    }
    expect(document.components.schemas?.Error).toMatchObject({ required: ['message'] });
  });

  it('documents the 429 of every operation with the public body and Retry-After', () => {
    for (const { operation: op } of operations) {
      const tooMany = op.responses['429'];
      expect(tooMany?.content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/RateLimitError' } },
      });
      expect(tooMany?.headers?.['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    }
    const body = document.components.schemas?.RateLimitError as { properties: Json; required: string[] };
    expect(Object.keys(body.properties)).toEqual(['message', 'scope', 'limit', 'current', 'reset']);
    expect(body.required).toEqual(['message', 'scope', 'limit', 'current', 'reset']);
  });

  it('documents the user rate-limit headers on every counted response, the organization ones where the path names one', () => {
    for (const { path, operation: op } of operations) {
      for (const [code, response] of Object.entries(op.responses)) {
        const names = Object.keys(response.headers ?? {}).filter((name) => name.startsWith('RateLimit-'));
        if (code === '401') {
          expect(names, `${path} ${code}`).toEqual([]);
          continue;
        }
        const organization = path.includes('{organization}')
          ? ['RateLimit-Remaining', 'RateLimit-Limit', 'RateLimit-Reset']
          : [];
        expect(names, `${path} ${code}`).toEqual([
          ...organization,
          'RateLimit-User-Remaining',
          'RateLimit-User-Limit',
          'RateLimit-User-Reset',
        ]);
      }
    }
  });

  it('resolves every $ref to a component that exists', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
      expect(match, ref).not.toBeNull();
      expect(document.components[match![1]!]?.[match![2]!], ref).toBeDefined();
    }
  });

  it('keeps only the components it refers to, each under one name', () => {
    const referred = new Set(refsIn(document).map((ref) => ref.split('/').pop()));
    for (const name of Object.keys(document.components.schemas ?? {})) {
      expect(referred.has(name), name).toBe(true);
      expect(name).not.toMatch(/Output$|^error\./);
    }
  });

  it('declares each path parameter of a path template, and no other', () => {
    for (const { path, operation: op } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (op.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name)
        .sort();
      expect(declared, path).toEqual(inPath);
    }
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ operation: op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(LISTS)('documents the filters, the pagination and the Link header of %s %s', (method, path) => {
    const op = operation(method, path);
    const query = (op.parameters ?? []).filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining([
        'branch',
        'commit',
        'state',
        'created_from',
        'created_to',
        'finished_from',
        'creator',
        'include_retried_jobs',
        'meta_data',
        'page',
        'per_page',
      ]),
    );
    for (const parameter of query) expect(parameter.description, parameter.name).toBeTruthy();
    // `meta_data[<key>]=<value>`, read from the input's record (query-input.ts).
    expect(query.find((parameter) => parameter.name === 'meta_data')).toMatchObject({
      style: 'deepObject',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
    expect(op.responses['200']?.headers?.Link).toEqual({ $ref: '#/components/headers/Link' });
  });

  it('documents the Link header on list operations only', () => {
    const withLink = operations
      .filter(({ operation: op }) => Object.values(op.responses).some((response) => response.headers?.Link))
      .map(({ method, path }) => `${method} ${path}`);
    expect(withLink.sort()).toEqual(
      [
        ...LISTS.map(([method, path]) => `${method} ${path}`),
        `GET ${BUILD}/annotations`,
        `GET ${REGISTRIES}`,
        `GET ${TEAM_PIPELINES}`,
        'GET /organizations/{organization}/teams',
        'GET /organizations/{organization}/teams/{team}/members',
        `GET ${PIPELINES}`,
        'GET /organizations',
        `GET ${ORGANIZATION}/members`,
        `GET ${AGENTS}`,
        `GET ${CLUSTERS}`,
        `GET ${CLUSTER}/queues`,
        `GET ${CLUSTER}/tokens`,
        `GET ${BUILD}/artifacts`,
        `GET ${BUILD}/jobs/{job}/artifacts`,
        `GET ${SERVICES}`,
        `GET ${SERVICE}/deliveries`,
      ].sort(),
    );
  });

  it.each([
    ['GET', `${BUILD}/artifacts`, '200', 'Artifact', 'read_artifacts'],
    ['GET', `${BUILD}/jobs/{job}/artifacts`, '200', 'Artifact', 'read_artifacts'],
    ['GET', `${BUILD}/jobs/{job}/artifacts/{artifact}`, '200', 'Artifact', 'read_artifacts'],
    ['GET', `${BUILD}/jobs/{job}/artifacts/{artifact}/download`, '302', 'ArtifactDownload', 'read_artifacts'],
    ['DELETE', `${BUILD}/jobs/{job}/artifacts/{artifact}`, '204', null, 'write_artifacts'],
  ] as const)(
    'documents the artifact operation %s %s: %s %s, scope %s',
    (method, path, status, component, scope) => {
      const { responses, security } = operation(method, path);
      expect(Object.keys(responses)).toContain(status);
      if (component) expect(JSON.stringify(responses[status])).toContain(`#/components/schemas/${component}`);
      expect(JSON.stringify(security)).toContain(scope);
    },
  );

  it('documents exactly the cluster operations, with their statuses, bodies and scopes', () => {
    expect(
      operations
        .filter(({ path }) => path.startsWith(CLUSTERS))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(CLUSTER_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
    for (const [method, path, status, component, scope] of CLUSTER_OPERATIONS) {
      const { responses, security } = operation(method, path);
      const success = JSON.stringify(responses[status]);
      if (component) expect(success).toContain(`#/components/schemas/${component.replace('[]', '')}`);
      else expect(success).not.toContain('content');
      expect(JSON.stringify(security)).toContain(scope);
    }
  });

  it('documents exactly the notification service operations, with their statuses, bodies and scopes', () => {
    expect(
      operations
        .filter(({ path }) => path.startsWith(SERVICES))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(SERVICE_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
    for (const [method, path, status, component, scope] of SERVICE_OPERATIONS) {
      const { responses, security } = operation(method, path);
      const success = JSON.stringify(responses[status]);
      if (component) expect(success).toContain(`#/components/schemas/${component.replace('[]', '')}`);
      else expect(success).not.toContain('content');
      expect(JSON.stringify(security)).toContain(scope);
    }
  });

  it('documents the OAuth scope headers on every response', () => {
    for (const { operation: op } of operations) {
      for (const response of Object.values(op.responses)) {
        expect(response.headers).toMatchObject({
          'X-OAuth-Scopes': { $ref: '#/components/headers/X-OAuth-Scopes' },
          'X-Accepted-OAuth-Scopes': { $ref: '#/components/headers/X-Accepted-OAuth-Scopes' },
        });
      }
    }
  });

  it('documents the create body as CreateBuildRequest', () => {
    const op = operation('POST', '/organizations/{organization}/pipelines/{pipeline}/builds');
    expect(op.requestBody?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/CreateBuildRequest' } },
    });
    expect(document.components.schemas?.CreateBuildRequest).toMatchObject({ required: ['commit', 'branch'] });
  });

  it('documents the get-build query parameter include_retried_jobs', () => {
    const names = (operation('GET', BUILD).parameters ?? []).map((parameter) => parameter.name);
    expect(names).toContain('include_retried_jobs');
  });
});

const TEAM_PIPELINES = '/organizations/{organization}/teams/{team}/pipelines';
const TEAM_PIPELINE = `${TEAM_PIPELINES}/{pipeline}`;
/** method, path, success status, the success body (a list, one association, or none) and the scope */
const TEAM_PIPELINE_OPERATIONS = [
  ['GET', TEAM_PIPELINES, '200', 'list', 'view_teams'],
  ['GET', TEAM_PIPELINE, '200', 'one', 'view_teams'],
  ['POST', TEAM_PIPELINES, '201', 'one', 'write_teams'],
  ['PATCH', TEAM_PIPELINE, '200', 'one', 'write_teams'],
  ['DELETE', TEAM_PIPELINE, '204', 'none', 'write_teams'],
  ['DELETE', TEAM_PIPELINES, '204', 'none', 'write_teams'],
] as const;

describe('the OpenAPI document of team pipelines', () => {
  it('documents exactly the team pipelines operations, delete also on the literal …/pipelines/', () => {
    expect(
      operations
        .filter(({ path }) => path.includes('/teams/{team}/pipelines'))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    ).toEqual(TEAM_PIPELINE_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each(TEAM_PIPELINE_OPERATIONS)('answers %s %s with %s and %s', (method, path, status, shape, scope) => {
    const { responses, security } = operation(method, path);
    expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
    const expected = {
      list: { type: 'array', items: { $ref: '#/components/schemas/TeamPipeline' } },
      one: { $ref: '#/components/schemas/TeamPipeline' },
      none: undefined,
    }[shape];
    expect(responses[status]?.content?.['application/json']?.schema).toEqual(expected);
    if (shape === 'none') expect(responses[status]?.content).toBeUndefined();
    expect(security).toEqual([{ AccessToken: [scope] }]);
  });

  it('documents the bodies as CreateTeamPipelineRequest and UpdateTeamPipelineRequest', () => {
    const body = (method: string, path: string) =>
      operation(method, path).requestBody?.content['application/json']?.schema;
    expect(body('POST', TEAM_PIPELINES)).toEqual({ $ref: '#/components/schemas/CreateTeamPipelineRequest' });
    expect(body('PATCH', TEAM_PIPELINE)).toEqual({ $ref: '#/components/schemas/UpdateTeamPipelineRequest' });
    expect(document.components.schemas?.CreateTeamPipelineRequest).toMatchObject({
      required: ['pipeline_id', 'access_level'],
    });
    expect(document.components.schemas?.UpdateTeamPipelineRequest).toMatchObject({
      required: ['access_level'],
    });
  });

  it('documents the pipeline_id query parameter of the literal delete', () => {
    const query = (operation('DELETE', TEAM_PIPELINES).parameters ?? []).filter(
      (parameter) => parameter.in === 'query',
    );
    expect(query.map((parameter) => parameter.name)).toEqual(['pipeline_id']);
  });

  it('gives the TeamPipeline component the keys of the reference examples, in their order', () => {
    const schema = document.components.schemas?.TeamPipeline as { properties: Json; required: string[] };
    expect(Object.keys(schema.properties)).toEqual([
      'access_level',
      'created_at',
      'pipeline_id',
      'pipeline_url',
    ]);
    expect(schema.required).toEqual(['access_level', 'created_at', 'pipeline_id', 'pipeline_url']);
  });
});

describe('conditional GETs in the document', () => {
  const document = openApiDocument(appRouter, { baseUrl: 'http://localhost:3000/v2' }) as unknown as {
    paths: Record<
      string,
      Record<string, { parameters?: { name: string }[]; responses: Record<string, { headers?: object }> }>
    >;
  };
  const list = document.paths['/organizations/{organization}/pipelines/{pipeline}/builds']?.get;
  const build = document.paths['/organizations/{organization}/pipelines/{pipeline}/builds/{number}']?.get;

  it("show ETag, If-None-Match and 304 on a pipeline's build list and a build, and nowhere else", () => {
    for (const operation of [list, build]) {
      expect(operation?.responses['304']).toBeDefined();
      expect(operation?.responses['200']?.headers).toHaveProperty('ETag');
      expect(operation?.parameters?.map((parameter) => parameter.name)).toContain('If-None-Match');
    }
    const others = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation !== list && operation !== build);
    expect(others.filter((operation) => operation.responses['304'])).toEqual([]);
  });
});
