import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A response as REST sent it, to send again while the revision it was made at holds. */
export interface CachedResponse {
  /** the answer revision (`answerRevision`) read before the response's content */
  revision: string;
  /** the headers that belong to the content (`Link`); each request adds its own */
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

/**
 * Responses about a pipeline's builds, by request: a bounded LRU of their bytes (ADR 0016). A response is
 * given back only for the revision it was made at, the cache's one rule; the revision moves with every
 * change to what it shows (content-revisions.int.test.ts, response-cache-invariant.int.test.ts).
 */
export class ResponseCache {
  readonly #entries: LRUCache<string, CachedResponse>;

  constructor(maxBytes: number) {
    this.#entries = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => key.length + entry.body.length || 1,
    });
  }

  get(key: string, revision: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    return entry?.revision === revision ? entry : undefined;
  }

  set(key: string, entry: CachedResponse): void {
    this.#entries.set(key, entry);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize };
  }
}

/** A strong entity tag for the answer to `request` (method, path and query) at `revision`. */
export function entityTag(revision: string, request: string): string {
  return `"${createHash('sha1').update(revision).update('\n').update(request).digest('base64url')}"`;
}

/** Whether `If-None-Match` names `tag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export function matchesNoneMatch(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((given) => {
    const candidate = given.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === tag;
  });
}
