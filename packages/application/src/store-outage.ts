/**
 * The database out of reach, as the repositories' errors show it: the transports answer such a failure
 * 503 with `Retry-After` instead of a 500, and log it once per outage instead of once per request.
 */

/** Socket failures (Node), and PostgreSQL's connection exceptions (class 08), shutdowns and refusals. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
]);

/** What node-postgres and its pool say when a connection ends or none can be had. */
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/i;

/** The seconds a client is asked to wait before trying again. */
export const STORE_RETRY_AFTER_SECONDS = 5;

export const STORE_UNAVAILABLE_MESSAGE =
  'Service Unavailable: the database cannot be reached, try again shortly';

/** Whether `error`, or what caused it (`cause`, GraphQL's `originalError`, an AggregateError's), says the database is out of reach. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 6 || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, originalError, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    originalError?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message) && !('kind' in error)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1) || isStoreUnavailable(originalError, depth + 1);
}

/** Where an outage is told (a pino logger fits). */
export interface OutageLog {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * The process's one record of a database outage: the first failing request logs it, the others are
 * counted; a probe (the server's ping) then runs every `probeMs` until the database answers, and the
 * recovery is logged with how long it lasted and how many requests were refused.
 */
export class StoreOutage {
  private since: number | null = null;
  private refused = 0;
  private probe: (() => Promise<void>) | null = null;

  constructor(private readonly probeMs = 1000) {}

  /** The check that tells the outage is over (without one, an outage is logged once for good). */
  probeWith(probe: () => Promise<void>): void {
    this.probe = probe;
  }

  /** Whether an outage is going on. */
  get ongoing(): boolean {
    return this.since !== null;
  }

  /** A request answered 503 because of `error`: logged when it opens an outage. */
  report(log: OutageLog, error: unknown): void {
    this.refused += 1;
    if (this.since !== null) return;
    this.since = Date.now();
    log.error({ err: error }, 'database unreachable: requests are answered 503 until it is back');
    this.watch(log);
  }

  private watch(log: OutageLog): void {
    const probe = this.probe;
    if (!probe) return;
    let probing = false;
    const timer = setInterval(() => {
      if (probing) return;
      probing = true;
      probe().then(
        () => {
          clearInterval(timer);
          log.info(
            { downForMs: Date.now() - (this.since ?? Date.now()), refusedRequests: this.refused },
            'database reachable again',
          );
          this.since = null;
          this.refused = 0;
        },
        () => {
          probing = false;
        },
      );
    }, this.probeMs);
    timer.unref();
  }
}

/** This process's outage record: every transport reports to it, the server gives it its probe. */
export const storeOutage = new StoreOutage();
