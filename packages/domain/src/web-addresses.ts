/**
 * Where people and tools find objects, built on the configured public base URLs (no trailing slash),
 * in the patterns of the public API's examples. REST's `web_url`s and GraphQL's `url`s are these.
 */
export const webAddresses = {
  organization: (web: string, organization: string) => `${web}/${organization}`,
  pipeline: (web: string, organization: string, pipeline: string) => `${web}/${organization}/${pipeline}`,
  build: (web: string, organization: string, pipeline: string, number: number) =>
    `${web}/${organization}/${pipeline}/builds/${number}`,
  /** A job is an anchor on its build's page. */
  job: (buildWebUrl: string, jobId: string) => `${buildWebUrl}#${jobId}`,
  agent: (web: string, organization: string, agentId: string) =>
    `${web}/organizations/${organization}/agents/${agentId}`,
  cluster: (web: string, organization: string, clusterId: string) =>
    `${web}/organizations/${organization}/clusters/${clusterId}`,
  registry: (web: string, organization: string, registry: string) =>
    `${web}/organizations/${organization}/packages/registries/${registry}`,
  /**
   * Where source hosts and pipeline triggers deliver, served by this API (rule B2 decides who sees a
   * pipeline's); '' when the pipeline's webhook was deleted.
   */
  webhook: (api: string, token: string | null) => (token === null ? '' : `${api}/webhooks/deliver/${token}`),
  /** The pipeline's build badge, served by the API; its pipeline's visibility decides who may see it. */
  badge: (api: string, pipelineId: string) => `${api}/badges/${pipelineId}.svg`,
} as const;
