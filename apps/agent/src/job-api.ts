/**
 * The agent API as a job's own commands reach it: the endpoint, access token and job id the agent puts
 * in every job's environment (`BUILDKITE_AGENT_ENDPOINT`, `BUILDKITE_AGENT_ACCESS_TOKEN`, `BUILDKITE_JOB_ID`).
 */
export interface JobApi {
  jobId: string;
  /** a JSON call under the endpoint; answers the parsed body (undefined when empty), throws {@link JobApiError} */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /**
   * A call whose body is bytes (an upload) or whose answer is read as bytes (a download); `target` is a
   * path under the endpoint (sent with the token) or an absolute address (a signed one: sent without).
   */
  transfer(method: string, target: string, body?: BodyInit): Promise<Response>;
}

export class JobApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A command refused before it called the API (bad file, bad argument): its message, exit 1. */
export class UsageError extends Error {}

export function jobApiFromEnv(env: NodeJS.ProcessEnv = process.env): JobApi {
  const endpoint = env.BUILDKITE_AGENT_ENDPOINT?.replace(/\/+$/, '');
  const token = env.BUILDKITE_AGENT_ACCESS_TOKEN;
  const jobId = env.BUILDKITE_JOB_ID;
  const missing = Object.entries({
    BUILDKITE_AGENT_ENDPOINT: endpoint,
    BUILDKITE_AGENT_ACCESS_TOKEN: token,
    BUILDKITE_JOB_ID: jobId,
  })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) throw new JobApiError(0, `not inside a job: ${missing.join(', ')} not set`);
  return {
    jobId: jobId as string,
    async transfer(method: string, target: string, body?: BodyInit): Promise<Response> {
      const own = !/^https?:\/\//.test(target);
      const url = own ? `${endpoint}${target}` : target;
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: own ? { Authorization: `Token ${token}`, 'Content-Type': 'application/octet-stream' } : {},
          ...(body !== undefined ? { body, duplex: 'half' } : {}),
        } as RequestInit);
      } catch (error) {
        throw new JobApiError(0, `${method} ${url.split('?')[0]}: ${(error as Error).message}`);
      }
      if (!response.ok) {
        const text = await response.text();
        let message = text;
        try {
          message = (JSON.parse(text) as { message?: string }).message ?? text;
        } catch {}
        throw new JobApiError(
          response.status,
          `${method} ${url.split('?')[0]}: ${response.status} ${message}`,
        );
      }
      return response;
    },
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const url = `${endpoint}${path}`;
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            Authorization: `Token ${token}`,
            ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      } catch (error) {
        throw new JobApiError(0, `${method} ${url}: ${(error as Error).message}`);
      }
      const text = await response.text();
      if (!response.ok) {
        let message = text;
        try {
          message = (JSON.parse(text) as { message?: string }).message ?? text;
        } catch {}
        throw new JobApiError(response.status, `${method} ${url}: ${response.status} ${message}`);
      }
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}
