/**
 * Where REST clients find objects: the `/v2` addresses of the wire forms' `url`s, built on the configured
 * public API URL (no trailing slash), in the patterns of the public API's examples. Web addresses (`web_url`,
 * the webhook and the badge) are the domain's `webAddresses`, shared with GraphQL.
 */
export const apiAddresses = {
  organization: (api: string, organization: string) => `${api}/v2/organizations/${organization}`,
  pipeline: (api: string, organization: string, pipeline: string) =>
    `${api}/v2/organizations/${organization}/pipelines/${pipeline}`,
  build: (api: string, organization: string, pipeline: string, number: number) =>
    `${api}/v2/organizations/${organization}/pipelines/${pipeline}/builds/${number}`,
  /** A job is a path under its build's address. */
  job: (buildUrl: string, jobId: string) => `${buildUrl}/jobs/${jobId}`,
  agent: (api: string, organization: string, agentId: string) =>
    `${api}/v2/organizations/${organization}/agents/${agentId}`,
  cluster: (api: string, organization: string, clusterId: string) =>
    `${api}/v2/organizations/${organization}/clusters/${clusterId}`,
  /** A queue is a path under its cluster's address. */
  clusterQueue: (clusterUrl: string, queueId: string) => `${clusterUrl}/queues/${queueId}`,
  registry: (api: string, organization: string, registry: string) =>
    `${api}/v2/packages/organizations/${organization}/registries/${registry}`,
} as const;
