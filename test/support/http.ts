import type { startTestServer } from './server';

type Server = Pick<Awaited<ReturnType<typeof startTestServer>>, 'fetch'>;

export interface CallOptions {
  /** the bearer token; undefined: the default one, null: none */
  token?: string | null;
  /** sent as JSON with `Content-Type: application/json` */
  body?: unknown;
  /** sent as it is */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Requests against a test server that read every answer as the untyped JSON a client sees. */
export function jsonCaller(server: Server, defaultToken: () => string | null) {
  return async (method: string, path: string, options: CallOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const secret = options.token === undefined ? defaultToken() : options.token;
    if (secret) headers.Authorization = `Bearer ${secret}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await server.fetch(path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies as the untyped JSON a client sees
    return { status: response.status, headers: response.headers, body: json as any, text };
  };
}
