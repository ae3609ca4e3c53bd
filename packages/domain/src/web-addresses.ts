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
  /** Where the pipeline's webhook delivers (rule B2 decides who sees it). */
  webhook: (web: string, webhookToken: string) => `${web}/webhooks/deliver/${webhookToken}`,
  /** The pipeline's build badge, served by the API. */
  badge: (api: string, webhookToken: string) => `${api}/badges/${webhookToken}.svg`,
} as const;
