import {
  type DocumentNode,
  getNamedType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { schema } from './schema';

/** The fields of `JobInterface`, and those every kind of job has besides. */
const JOB_INTERFACE = ['retried', 'retriesCount', 'retrySource', 'retryType', 'uuid'];
const EVERY_JOB = [...JOB_INTERFACE, 'build', 'id', 'label', 'state', 'step'];

/** The same fields for each of these types. */
const alike = (types: readonly string[], fields: readonly string[]) =>
  Object.fromEntries(types.map((type) => [type, fields]));

/**
 * What an answer that may be kept shows, by type: the fields whose values come only from the pipeline the
 * operation names (its row, its builds and jobs and their counts) and from the catalog beside them (users,
 * organizations, memberships, agents but for their heartbeats), which is what a pipeline's revision stands
 * for (ADR 0012). A field not listed (a pipeline's teams, a user's builds, an agent's current job, a
 * pipeline's next build number) makes the answer one that is not kept. New fields are out until listed.
 */
export const SHOWN_BY_REVISION: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    Query: ['pipeline', 'build'],
    Pipeline: [
      'archived',
      'archivedAt',
      'badgeURL',
      'branchConfiguration',
      'builds',
      'cancelIntermediateBuilds',
      'cancelIntermediateBuildsBranchFilter',
      'createdAt',
      'createdBy',
      'defaultBranch',
      'description',
      'id',
      'name',
      'organization',
      'repository',
      'skipIntermediateBuilds',
      'skipIntermediateBuildsBranchFilter',
      'slug',
      'url',
      'uuid',
      'visibility',
      'webhookURL',
    ],
    Build: [
      'blocked',
      'blockedState',
      'branch',
      'cancelReason',
      'canceledAt',
      'commit',
      'createdAt',
      'createdBy',
      'env',
      'failingAt',
      'finishedAt',
      'id',
      'jobs',
      'message',
      'metaData',
      'number',
      'organization',
      'pipeline',
      'pullRequest',
      'rebuiltFrom',
      'scheduledAt',
      'source',
      'startedAt',
      'state',
      'url',
      'uuid',
    ],
    Organization: ['id', 'name', 'slug', 'uuid'],
    User: ['avatar', 'email', 'id', 'name', 'uuid'],
    UnregisteredUser: ['avatar', 'email', 'name'],
    Agent: [
      'connectedAt',
      'connectionState',
      'createdAt',
      'disconnectedAt',
      'hostname',
      'id',
      'ipAddress',
      'metaData',
      'name',
      'pid',
      'userAgent',
      'uuid',
      'version',
    ],
    JobInterface: JOB_INTERFACE,
    JobTypeCommand: [
      ...EVERY_JOB,
      'agent',
      'agentQueryRules',
      'automaticArtifactUploadPaths',
      'canceledAt',
      'command',
      'createdAt',
      'exitStatus',
      'finishedAt',
      'parallelGroupIndex',
      'parallelGroupTotal',
      'passed',
      'pipeline',
      'runnableAt',
      'scheduledAt',
      'signal',
      'signalReason',
      'softFailed',
      'startedAt',
      'url',
    ],
    JobTypeBlock: [...EVERY_JOB, 'isUnblockable', 'unblockedAt', 'unblockedBy'],
    JobTypeTrigger: EVERY_JOB,
    JobTypeWait: EVERY_JOB,
    ...alike(['Step', 'StepCommand', 'StepInput', 'StepTrigger', 'StepWait'], ['key', 'uuid']),
    Avatar: ['url'],
    Repository: ['url'],
    PullRequest: ['id'],
    ...alike(
      [
        'BuildSource',
        'BuildSourceAPI',
        'BuildSourceFrontend',
        'BuildSourceSchedule',
        'BuildSourceTriggerJob',
        'BuildSourceWebhook',
      ],
      ['name'],
    ),
    BuildMetaData: ['key', 'value'],
    Connection: ['count', 'pageInfo'],
    ...alike(['BuildConnection', 'JobConnection', 'BuildMetaDataConnection'], ['count', 'edges', 'pageInfo']),
    ...alike(['BuildEdge', 'JobEdge', 'BuildMetaDataEdge'], ['cursor', 'node']),
    PageInfo: ['endCursor', 'hasNextPage', 'hasPreviousPage', 'startCursor'],
  }).map(([type, fields]) => [type, new Set(fields)]),
);

/** Directives whose effect the answer's key holds (its variables); any other keeps nothing. */
const KEPT_DIRECTIVES = new Set(['include', 'skip']);

/**
 * Whether the answer to `operation` may be kept and sent again while the revision of the pipeline it
 * names holds (ADR 0012): a query whose one root field is `pipeline` or `build` named by `slug` alone
 * (the pipeline the revision is read for), and whose every field, in it and in every fragment of the
 * document, is one the revision stands for ({@link SHOWN_BY_REVISION}). A field unknown to the schema
 * answers "no" (its answer is an error, never kept anyway).
 */
export function keepsAnswer(document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== 'query') return false;
  const roots = operation.selectionSet.selections;
  const root = roots[0];
  if (roots.length !== 1 || root?.kind !== Kind.FIELD || root.directives?.length) return false;
  if (root.arguments?.length !== 1 || root.arguments[0]?.name.value !== 'slug') return false;
  let kept = true;
  const typeInfo = new TypeInfo(schema);
  const check = visitWithTypeInfo(typeInfo, {
    Field(field) {
      if (field.name.value === '__typename') return;
      const parent = typeInfo.getParentType();
      const type = parent && getNamedType(parent);
      if (!type || !SHOWN_BY_REVISION[type.name]?.has(field.name.value) || !typeInfo.getFieldDef()) {
        kept = false;
      }
    },
    Directive(directive) {
      if (!KEPT_DIRECTIVES.has(directive.name.value)) kept = false;
    },
  });
  visit(operation, check);
  for (const definition of document.definitions) {
    if (!kept) break;
    if (definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition, check);
  }
  return kept;
}
