import { ORGANIZATION_RATE_LIMIT_HEADERS, scopeFor, USER_RATE_LIMIT_HEADERS } from '@ci/domain';
import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { AccessTokenWire } from './access-tokens/access-token.wire';
import { AgentResourceWire, PauseAgentRequest, StopAgentRequest } from './agents/agent.wire';
import { AnnotationWire, CreateAnnotationRequest } from './annotations/annotation.wire';
import { ArtifactDownloadWire, ArtifactWire } from './artifacts/artifact.wire';
import { BuildWire, CreateBuildRequest, JobWire } from './builds/build.wire';
import {
  ClusterQueueWire,
  ClusterTokenWire,
  ClusterWire,
  CreateClusterQueueRequest,
  CreateClusterRequest,
  CreateClusterTokenRequest,
  PauseClusterQueueRequest,
  UpdateClusterQueueRequest,
  UpdateClusterRequest,
  UpdateClusterTokenRequest,
} from './clusters/cluster.wire';
import { ErrorWire, RateLimitErrorWire } from './error.wire';
import { JobEnvWire, JobLogWire, UnblockedJobWire } from './jobs/job.wire';
import {
  CreateNotificationServiceRequest,
  NotificationDeliveryWire,
  NotificationServiceWire,
  UpdateNotificationServiceRequest,
} from './notifications/notification-service.wire';
import { OrganizationMemberWire, OrganizationWire } from './organizations/organization.wire';
import {
  CreatePipelineScheduleRequest,
  PipelineScheduleListWire,
  PipelineScheduleWire,
  UpdatePipelineScheduleRequest,
} from './pipeline-schedules/pipeline-schedule.wire';
import {
  CreatePipelineTriggerRequest,
  CreatePipelineWebhookRequest,
  PipelineTriggerListWire,
  PipelineTriggerWire,
  UpdatePipelineTriggerRequest,
} from './pipeline-triggers/pipeline-trigger.wire';
import { CreatePipelineRequest, PipelineWire, UpdatePipelineRequest } from './pipelines/pipeline.wire';
import { CreateRegistryRequest, RegistryWire, UpdateRegistryRequest } from './registries/registry.wire';
import {
  CreateTeamPipelineRequest,
  TeamPipelineWire,
  UpdateTeamPipelineRequest,
} from './team-pipelines/team-pipeline.wire';
import {
  CreateTeamMemberRequest,
  CreateTeamRequest,
  TeamMemberWire,
  TeamWire,
  UpdateTeamMemberRequest,
  UpdateTeamRequest,
} from './teams/team.wire';
import type { Meta } from './trpc';
import { UserWire } from './users/user.wire';

/** Components the documented inputs and outputs refer to. */
const COMPONENTS = {
  Build: BuildWire,
  Job: JobWire,
  JobLog: JobLogWire,
  JobEnv: JobEnvWire,
  UnblockedJob: UnblockedJobWire,
  Annotation: AnnotationWire,
  CreateAnnotationRequest,
  Artifact: ArtifactWire,
  ArtifactDownload: ArtifactDownloadWire,
  CreateBuildRequest,
  Error: ErrorWire,
  RateLimitError: RateLimitErrorWire,
  Registry: RegistryWire,
  CreateRegistryRequest,
  UpdateRegistryRequest,
  NotificationService: NotificationServiceWire,
  NotificationDelivery: NotificationDeliveryWire,
  CreateNotificationServiceRequest,
  UpdateNotificationServiceRequest,
  Cluster: ClusterWire,
  CreateClusterRequest,
  UpdateClusterRequest,
  ClusterQueue: ClusterQueueWire,
  CreateClusterQueueRequest,
  UpdateClusterQueueRequest,
  PauseClusterQueueRequest,
  ClusterToken: ClusterTokenWire,
  CreateClusterTokenRequest,
  UpdateClusterTokenRequest,
  TeamPipeline: TeamPipelineWire,
  CreateTeamPipelineRequest,
  UpdateTeamPipelineRequest,
  Team: TeamWire,
  CreateTeamRequest,
  UpdateTeamRequest,
  TeamMember: TeamMemberWire,
  CreateTeamMemberRequest,
  UpdateTeamMemberRequest,
  Pipeline: PipelineWire,
  CreatePipelineRequest,
  UpdatePipelineRequest,
  CreatePipelineWebhookRequest,
  PipelineTrigger: PipelineTriggerWire,
  PipelineTriggerList: PipelineTriggerListWire,
  CreatePipelineTriggerRequest,
  UpdatePipelineTriggerRequest,
  PipelineSchedule: PipelineScheduleWire,
  PipelineScheduleList: PipelineScheduleListWire,
  CreatePipelineScheduleRequest,
  UpdatePipelineScheduleRequest,
  AccessToken: AccessTokenWire,
  User: UserWire,
  Organization: OrganizationWire,
  OrganizationMember: OrganizationMemberWire,
  AgentResource: AgentResourceWire,
  StopAgentRequest,
  PauseAgentRequest,
};

const SCHEMAS = '#/components/schemas/';
const HEADERS = '#/components/headers/';
const SECURITY_SCHEME = 'AccessToken';

type Json = Record<string, unknown>;
type Parameter = {
  name: string;
  in: string;
  description?: string;
  schema?: Json;
  required?: boolean;
  style?: string;
  explode?: boolean;
};
type Operation = {
  operationId: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, Json>;
};
type Document = ReturnType<typeof generateOpenApiDocument>;
type Procedure = { _def: { meta?: Meta; inputs?: unknown[] } };

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Malformed parameters or JSON',
  '401': 'Missing, unknown, expired or revoked token',
  '403': "The token lacks the operation's scope, or the user's access does not allow it",
  '404':
    'No such organization, pipeline, build, annotation, registry, team, agent or cluster, or not visible to the user',
  '422': 'The request cannot be carried out',
};

/** What each group of operations is about, shown beside the tag's name. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Builds: 'Builds of pipelines: list, get, create, cancel and rebuild',
  Pipelines:
    "An organization's pipelines: list, get, create, update, delete, archive and unarchive, and their inbound webhook",
  'Pipeline triggers':
    "A pipeline's triggers: URLs ending in a `bktr_` token that create a build from a JSON POST",
  'Pipeline schedules':
    "A pipeline's schedules (an extension): cron expressions that each create one build per tick",
  Registries: "An organization's package registries",
  Clusters: "An organization's clusters of agents (stored; dispatch does not use them yet)",
  'Cluster queues': "A cluster's queues, and pausing their dispatch",
  'Cluster tokens': "A cluster's agent tokens",
  'Team pipelines': "The pipelines a team can reach, with the team's access level to each",
  Teams: "An organization's teams",
  'Team members': "A team's members and their roles in it",
  'Access token': 'The token the request is made with: what it allows, and revoking it',
  User: "The token's user",
  Organizations: "The organizations the token's user belongs to, and their members",
  Jobs: "A build's jobs: log output, environment, retry and unblock",
  Agents: "An organization's agents: list, get, stop, pause and resume",
};

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No Content',
  '302': 'Found: `Location` is a signed address of the bytes',
};

const header = (type: 'string' | 'integer', description: string) => ({ description, schema: { type } });
const WINDOW_RESET = 'Seconds until the current one-minute window ends and the counts restart';

/** Response headers, documented once and referred to by every response that carries them. */
const RESPONSE_HEADERS = {
  'X-OAuth-Scopes': header(
    'string',
    "The token's scopes, comma-separated; empty when the token is missing or unknown",
  ),
  'X-Accepted-OAuth-Scopes': header(
    'string',
    "The scope the operation needs (the role in the operation's security requirement)",
  ),
  'X-Request-Id': header(
    'string',
    "The request's id: the client's `X-Request-Id` when well formed, otherwise a new UUID",
  ),
  'RateLimit-Remaining': header(
    'integer',
    "Requests the path's organization may still make in this minute (with rate limiting on, on requests " +
      'naming an organization the user belongs to); 0 once spent',
  ),
  'RateLimit-Limit': header(
    'integer',
    'Requests per minute allowed to the organization, all its users together',
  ),
  'RateLimit-Reset': header('integer', WINDOW_RESET),
  'RateLimit-User-Remaining': header(
    'integer',
    "Requests the token's user may still make in this minute (with rate limiting on); 0 once spent",
  ),
  'RateLimit-User-Limit': header(
    'integer',
    'Requests per minute allowed to the user, in every organization together',
  ),
  'RateLimit-User-Reset': header('integer', WINDOW_RESET),
  'Retry-After': header('integer', 'Seconds to wait before the next request: when the current window ends'),
  ETag: header(
    'string',
    'A strong tag of this answer: the same tag, the same bytes. Send it as `If-None-Match` to get 304 while it holds',
  ),
  Link: header(
    'string',
    'Pagination (RFC 8288): absolute URLs of the `first` and `prev` pages after page 1, of the `next` and ' +
      '`last` pages before the last one; absent when everything fits on one page',
  ),
};
type HeaderName = keyof typeof RESPONSE_HEADERS;

const headerRefs = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `${HEADERS}${name}` }]));

const errorResponse = (description: string, headers: readonly HeaderName[], schema = 'Error') => ({
  description,
  headers: headerRefs(headers),
  content: { 'application/json': { schema: { $ref: `${SCHEMAS}${schema}` } } },
});

/**
 * The OpenAPI document of the REST API, generated from the router and adjusted to what the server
 * really answers: each operation's success status, `{message}` error bodies, the documented bodies of
 * inputs that the domain validates, the scope each operation needs, and the response headers.
 */
export function openApiDocument(router: AnyRouter, options: { baseUrl: string }): Document {
  const document = generateOpenApiDocument(router, {
    title: 'CI control API',
    version: '2',
    baseUrl: options.baseUrl,
    description:
      'Builds, teams, team members, team pipelines and package registries, on the wire format of the public REST API v2.',
    securitySchemes: {
      [SECURITY_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API access token: `Authorization: Bearer <token>`',
      },
    },
    defs: COMPONENTS,
  });
  const procedureByOperationId = new Map<string, Procedure>();
  const procedures = router._def.procedures as Record<string, Procedure>;
  for (const [path, procedure] of Object.entries(procedures)) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi) procedureByOperationId.set(openapi.operationId ?? path.replace(/\./g, '-'), procedure);
  }
  const tags = new Set<string>();
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, Operation>)) {
      const procedure = procedureByOperationId.get(operation.operationId);
      adjustOperation(operation, procedure);
      for (const tag of operation.tags ?? []) tags.add(tag);
    }
  }
  const components = document.components as Json & { schemas: Record<string, Json> };
  components.headers = RESPONSE_HEADERS;
  components.schemas = reachableSchemas(document as unknown as Json, components.schemas);
  if (tags.size) {
    document.tags = [...tags].map((name) => {
      const description = TAG_DESCRIPTIONS[name];
      return description ? { name, description } : { name };
    });
  }
  forEachObject(document, dropSafeIntegerBounds);
  return document;
}

function adjustOperation(operation: Operation, procedure: Procedure | undefined) {
  const meta = procedure?._def.meta;
  const authed = (operation.security?.length ?? 0) > 0;
  const scope = meta?.operation ? scopeFor(meta.operation) : null;
  if (authed) operation.security = [{ [SECURITY_SCHEME]: scope ? [scope] : [] }];

  const scopeHeaders: HeaderName[] = authed
    ? ['X-Request-Id', 'X-OAuth-Scopes', 'X-Accepted-OAuth-Scopes']
    : ['X-Request-Id'];
  // Counted requests (authenticated ones) carry the user's counter, and the organization's when the path names one.
  const namesOrganization = (operation.parameters ?? []).some(
    (parameter) => parameter.in === 'path' && parameter.name === 'organization',
  );
  const rateLimit: HeaderName[] = authed
    ? [...(namesOrganization ? ORGANIZATION_RATE_LIMIT_HEADERS : []), ...USER_RATE_LIMIT_HEADERS]
    : [];
  const everyResponse: HeaderName[] = [...scopeHeaders, ...rateLimit];
  const success = operation.responses['200'] ?? {};
  const json = (success.content as Json | undefined)?.['application/json'] as Json | undefined;
  // Every list is paginated (the spec): an array answer comes with a `Link` header.
  const paginated = (json?.schema as Json | undefined)?.type === 'array';
  const status = String(meta?.successStatus ?? 200);
  const responses: Record<string, Json> = {};
  responses[status] =
    status === '204' || meta?.emptyBody
      ? {
          description: meta?.emptyBody ? 'OK, with an empty body' : SUCCESS_DESCRIPTIONS[status],
          headers: headerRefs(everyResponse),
        }
      : {
          description: SUCCESS_DESCRIPTIONS[status] ?? 'Success',
          content: success.content,
          headers: headerRefs([
            ...everyResponse,
            ...(paginated ? (['Link'] as const) : []),
            ...(meta?.conditional ? (['ETag'] as const) : []),
          ]),
        };
  if (meta?.conditional) {
    responses['304'] = {
      description: 'Not Modified: `If-None-Match` names the current `ETag`; no body',
      headers: headerRefs([...everyResponse, 'ETag']),
    };
    operation.parameters = [
      ...(operation.parameters ?? []),
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'An `ETag` this operation answered: 304 while it still holds',
        schema: { type: 'string' },
      },
    ];
  }
  for (const [code, description] of Object.entries(ERROR_STATUSES)) {
    // A request without a valid token is not counted.
    responses[code] = errorResponse(description, code === '401' ? scopeHeaders : everyResponse);
  }
  if (meta?.requestBody) {
    operation.requestBody = {
      required: meta.requestBodyOptional !== true,
      content: { 'application/json': { schema: { $ref: `${SCHEMAS}${meta.requestBody}` } } },
    };
    responses['413'] = errorResponse('The request body is too large', everyResponse);
  }
  if (authed) {
    responses['429'] = errorResponse(
      "The organization's or the user's requests for this minute are spent (rate limiting on)",
      [...everyResponse, 'Retry-After'],
      'RateLimitError',
    );
  }
  responses['500'] = errorResponse('Unexpected failure, logged with the request id', everyResponse);
  operation.responses = responses;

  // The generator unwraps `.optional()` parameters and loses the description given on them.
  const shape = (procedure?._def.inputs?.[0] as { shape?: Record<string, { meta?: () => unknown }> })?.shape;
  for (const parameter of operation.parameters ?? []) {
    // A record in the query is sent as `name[key]=value` (query-input.ts).
    if (parameter.in === 'query' && parameter.schema?.type === 'object') {
      parameter.style = 'deepObject';
      parameter.explode = true;
    }
    if (!parameter.description) {
      const description = (shape?.[parameter.name]?.meta?.() as Json | undefined)?.description;
      if (typeof description === 'string') parameter.description = description;
    }
    // A query parameter's description is the parameter's; its schema need not repeat it.
    if (parameter.in === 'query' && parameter.schema?.description === parameter.description) {
      delete parameter.schema?.description;
    }
  }
}

/**
 * Only the schemas the document refers to, under their own names. The generator renders each named
 * schema for input and for output: the input forms (and its own error components) are unused here, and
 * the output forms carry an `Output` suffix that is noise once they are the only ones.
 */
function reachableSchemas(document: Json, schemas: Record<string, Json>): Record<string, Json> {
  const reachable = new Set<string>();
  const visit = (value: unknown) => {
    for (const ref of refsIn(value)) {
      if (!ref.startsWith(SCHEMAS)) continue;
      const name = ref.slice(SCHEMAS.length);
      if (reachable.has(name) || !schemas[name]) continue;
      reachable.add(name);
      visit(schemas[name]);
    }
  };
  visit(document.paths);
  const renames = new Map<string, string>();
  for (const name of reachable) {
    const base = name.replace(/Output$/, '');
    if (base !== name && !reachable.has(base)) renames.set(`${SCHEMAS}${name}`, `${SCHEMAS}${base}`);
  }
  const rename = (node: Json) => {
    const target = typeof node.$ref === 'string' ? renames.get(node.$ref) : undefined;
    if (target) node.$ref = target;
    const mapping = discriminatorMapping(node);
    if (mapping) for (const [value, ref] of Object.entries(mapping)) mapping[value] = renames.get(ref) ?? ref;
  };
  forEachObject(document.paths, rename);
  const kept: Record<string, Json> = {};
  for (const name of Object.keys(schemas).filter((key) => reachable.has(key))) {
    const schema = schemas[name]!;
    forEachObject(schema, rename);
    kept[(renames.get(`${SCHEMAS}${name}`) ?? `${SCHEMAS}${name}`).slice(SCHEMAS.length)] = schema;
  }
  return kept;
}

/** zod's `z.int()` states the safe-integer range as bounds: true, and noise in a document. */
function dropSafeIntegerBounds(node: Json) {
  if (node.minimum === Number.MIN_SAFE_INTEGER && node.maximum === Number.MAX_SAFE_INTEGER) {
    delete node.minimum;
    delete node.maximum;
  }
}

/** A discriminator's mapping: its values are references too, and must follow renames. */
function discriminatorMapping(node: Json): Record<string, string> | undefined {
  const mapping = (node.discriminator as Json | undefined)?.mapping;
  return mapping && typeof mapping === 'object' ? (mapping as Record<string, string>) : undefined;
}

function refsIn(value: unknown): string[] {
  const refs: string[] = [];
  forEachObject(value, (node) => {
    if (typeof node.$ref === 'string') refs.push(node.$ref);
    refs.push(...Object.values(discriminatorMapping(node) ?? {}));
  });
  return refs;
}

function forEachObject(value: unknown, visit: (node: Json) => void) {
  if (Array.isArray(value)) {
    for (const item of value) forEachObject(item, visit);
  } else if (value && typeof value === 'object') {
    visit(value as Json);
    for (const child of Object.values(value)) forEachObject(child, visit);
  }
}
