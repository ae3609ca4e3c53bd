/** An answer as a transport sent it, to send again while its revision holds (ADR 0012). */
export interface RememberedAnswer {
  /** the revision read before the answer's content was (`pipelineRevision`) */
  revision: string;
  status: number;
  /** the headers the answer was sent with; those of the request that reuses it take precedence */
  headers: Readonly<Record<string, string>>;
  contentType: string;
  body: Buffer;
}

/**
 * Answers a process sent, by request (a transport's key: what the answer depends on besides its
 * revision), least recently used forgotten first once their bodies pass `maxBytes`. An answer is given
 * back only for the revision it was kept with (`pipelineRevision`, read for the new request): the one
 * rule of sending a kept answer again. A memory of 0 bytes remembers nothing.
 */
export class AnswerMemory {
  readonly #answers = new Map<string, RememberedAnswer>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The answer kept for `key` if it was kept at `revision`; none otherwise. */
  recall(key: string, revision: string): RememberedAnswer | undefined {
    const answer = this.#answers.get(key);
    if (answer?.revision !== revision) return undefined;
    // Most recently used last.
    this.#answers.delete(key);
    this.#answers.set(key, answer);
    return answer;
  }

  remember(key: string, answer: RememberedAnswer): void {
    this.forget(key);
    const size = sizeOf(key, answer);
    if (size > this.maxBytes) return;
    this.#answers.set(key, answer);
    this.#bytes += size;
    for (const [oldest, old] of this.#answers) {
      if (this.#bytes <= this.maxBytes) break;
      this.#answers.delete(oldest);
      this.#bytes -= sizeOf(oldest, old);
    }
  }

  forget(key: string): void {
    const old = this.#answers.get(key);
    if (!old) return;
    this.#answers.delete(key);
    this.#bytes -= sizeOf(key, old);
  }

  /** how many answers, and their bytes (keys and bodies) */
  get size(): { answers: number; bytes: number } {
    return { answers: this.#answers.size, bytes: this.#bytes };
  }
}

/** What an answer counts against the memory's bytes: its key and its body. */
function sizeOf(key: string, answer: RememberedAnswer): number {
  return key.length + answer.body.length;
}
