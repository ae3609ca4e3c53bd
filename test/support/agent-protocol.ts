import type { startTestServer } from './server';

type Server = Pick<Awaited<ReturnType<typeof startTestServer>>, 'fetch'>;

/**
 * The agent side of `/v3`, driven by hand from a test (no agent process): register, connect, heartbeat,
 * and take jobs through accept, start and finish, so GraphQL and REST see jobs an agent really ran.
 */
export function agentProtocol(server: Server, registrationToken: string) {
  const v3 = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await server.fetch(`/v3${path}`, {
      method,
      headers: {
        Authorization: `Token ${token}`,
        'User-Agent': 'buildkite-agent/3.80.0 (linux; amd64)',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /v3${path}: ${response.status} ${text}`);
    // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON an agent reads
    return (text ? JSON.parse(text) : null) as any;
  };

  /** A registered and connected agent. */
  const register = async (
    options: { name?: string; tags?: string[]; version?: string; pid?: number; connect?: boolean } = {},
  ) => {
    const registered = await v3('POST', '/register', registrationToken, {
      name: options.name,
      hostname: `${options.name ?? 'agent'}.internal`,
      meta_data: options.tags ?? [],
      version: options.version ?? '3.80.0',
      pid: options.pid ?? 4242,
    });
    const token = registered.access_token as string;
    if (options.connect ?? true) await v3('POST', '/connect', token, {});
    return { token, uuid: registered.uuid as string, name: registered.name as string };
  };

  /** Pings until the agent is offered a job, then accepts and starts it; answers the job's id. */
  const start = async (token: string): Promise<string> => {
    const ping = await v3('GET', '/ping', token);
    if (!ping.job) throw new Error('the agent was offered no job');
    const id = ping.job.id as string;
    await v3('PUT', `/jobs/${id}/accept`, token);
    await v3('PUT', `/jobs/${id}/start`, token, { started_at: new Date().toISOString() });
    return id;
  };

  const finish = (
    token: string,
    jobId: string,
    result: { exitStatus?: number; signal?: string; signalReason?: string } = {},
  ) =>
    v3('PUT', `/jobs/${jobId}/finish`, token, {
      exit_status: String(result.exitStatus ?? 0),
      ...(result.signal ? { signal: result.signal } : {}),
      ...(result.signalReason ? { signal_reason: result.signalReason } : {}),
    });

  /** Takes the next job the agent is offered and finishes it with `exitStatus`. */
  const run = async (token: string, exitStatus = 0) => {
    const id = await start(token);
    await finish(token, id, { exitStatus });
    return id;
  };

  /** Runs every job the agent is offered, passing each, until it is offered none; answers their ids. */
  const drain = async (token: string) => {
    const ran: string[] = [];
    for (;;) {
      const ping = await v3('GET', '/ping', token);
      if (!ping.job) return ran;
      const id = ping.job.id as string;
      await v3('PUT', `/jobs/${id}/accept`, token);
      await v3('PUT', `/jobs/${id}/start`, token, {});
      await finish(token, id, { exitStatus: 0 });
      ran.push(id);
    }
  };

  return {
    v3,
    drain,
    register,
    start,
    finish,
    run,
    heartbeat: (token: string) => v3('POST', '/heartbeat', token, { sent_at: new Date().toISOString() }),
    disconnect: (token: string) => v3('POST', '/disconnect', token, {}),
    jobState: async (token: string, jobId: string) => (await v3('GET', `/jobs/${jobId}`, token)).state,
  };
}
