import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Bodies up to this size are kept deflated: a build or a short page shrinks ~5 × for ~30 µs once, and
 * inflates in ~15 µs each time it is sent again. Larger ones (a page of 30 builds) are kept as they are, as
 * inflating them on every request would cost more than it saves.
 */
export const DEFLATED_UP_TO = 64 * 1024;

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

/** A kept answer: its body is `length` bytes of the ring from `start`, deflated or not. */
interface Kept extends Omit<RememberedAnswer, 'body'> {
  key: string;
  start: number;
  length: number;
  deflated: boolean;
  /** false once forgotten or replaced: its bytes are free */
  live: boolean;
  /** recalled since the ring's hand last passed it: it stays when the hand comes to it (and is cleared) */
  recalled: boolean;
  /** how many bodies given back (views of the ring) may still be in use: its bytes stay while one may */
  inUse: number;
}

/** Watches a body given back, and calls `released` once it cannot be in use any more. */
type Watch = (body: Buffer, released: () => void) => void;

/**
 * By default a body given back may be in use until it is garbage: a socket still sending it holds it. The
 * registry tells when it was collected.
 */
const collected = new FinalizationRegistry<() => void>((released) => released());
const untilCollected: Watch = (body, released) => collected.register(body, released);

/**
 * Answers a process sent, by request (a transport's key: what the answer depends on besides its
 * revision), at most `maxBytes` of keys and bodies. An answer is given back only for the revision it was
 * kept with (`pipelineRevision`, read for the new request): the one rule of sending a kept answer again. A
 * memory of 0 bytes remembers nothing.
 *
 * Bodies live in one ring of `maxBytes`, allocated on the first answer kept and written in turn, like a log.
 * The hand that makes room for a new body passes the answers in its way in the order they were written: one
 * recalled since the hand last passed it stays where it is (the hand goes over it and clears the mark),
 * any other is forgotten. So answers in use stay, and one kept but never asked for again makes room first.
 * Forgotten answers free nothing for the garbage collector to find: a body kept a while and then dropped
 * would otherwise die old, outside V8's heap, and pile up until a full collection (ADR 0012, "Memory"). The
 * process holds at most `maxBytes` of bodies whatever the answers' turnover.
 *
 * Bodies up to {@link DEFLATED_UP_TO} are kept deflated and given back inflated (a buffer of their own).
 * A larger body given back is a view of the ring, not a copy (a copy of a large answer per request would be
 * garbage of its own). Its bytes are not written over while the view may be in use: the hand goes over an
 * answer whose view has not been collected yet (a socket still sending it holds it), forgotten or not, and when
 * nothing but such answers is left in its way the new answer is not kept.
 */
export class AnswerMemory {
  /** live answers by key */
  readonly #answers = new Map<string, Kept>();
  /** every answer in the ring, live or not, from `#first` on: in the order the hand meets them */
  #inRing: Kept[] = [];
  #first = 0;
  #ring: Buffer | undefined;
  /** the hand: where the next body is written */
  #hand = 0;
  #bytes = 0;

  readonly #watch: Watch;
  readonly #deflatedUpTo: number;

  /**
   * `watch`: how to tell whether a body given back may still be in use; `deflatedUpTo`: the largest body kept
   * deflated (tests set both to see the ring at work on their own terms).
   */
  constructor(
    readonly maxBytes: number,
    options: { watch?: Watch; deflatedUpTo?: number } = {},
  ) {
    this.#watch = options.watch ?? untilCollected;
    this.#deflatedUpTo = options.deflatedUpTo ?? DEFLATED_UP_TO;
  }

  /** The answer kept for `key` if it was kept at `revision`; none otherwise. */
  recall(key: string, revision: string): RememberedAnswer | undefined {
    const kept = this.#answers.get(key);
    if (kept?.revision !== revision || !this.#ring) return undefined;
    kept.recalled = true;
    const stored = this.#ring.subarray(kept.start, kept.start + kept.length);
    const { status, headers, contentType } = kept;
    if (kept.deflated) return { revision, status, headers, contentType, body: inflateRawSync(stored) };
    kept.inUse++;
    let released = false;
    this.#watch(stored, () => {
      if (released) return;
      released = true;
      kept.inUse--;
    });
    return { revision, status, headers, contentType, body: stored };
  }

  /** The revision of the answer kept for `key`, if any, without counting as a use of it. */
  revisionOf(key: string): string | undefined {
    return this.#answers.get(key)?.revision;
  }

  remember(key: string, answer: RememberedAnswer): void {
    this.forget(key);
    const deflated = answer.body.length <= this.#deflatedUpTo;
    const stored = deflated ? deflateRawSync(answer.body, { level: 3 }) : answer.body;
    const length = stored.length;
    const size = sizeOf(key, length);
    if (size > this.maxBytes) return;
    this.#ring ??= Buffer.allocUnsafeSlow(this.maxBytes);
    const start = this.#room(length, size);
    if (start === null) return;
    stored.copy(this.#ring, start);
    const { body: _body, ...rest } = answer;
    const kept: Kept = { ...rest, key, start, length, deflated, live: true, recalled: false, inUse: 0 };
    this.#hand = start + length;
    this.#inRing.push(kept);
    this.#answers.set(key, kept);
    this.#bytes += size;
  }

  forget(key: string): void {
    const kept = this.#answers.get(key);
    if (!kept) return;
    this.#answers.delete(key);
    kept.live = false;
    this.#bytes -= sizeOf(key, kept.length);
  }

  /** how many answers, and their bytes (keys and bodies as kept) */
  get size(): { answers: number; bytes: number } {
    return { answers: this.#answers.size, bytes: this.#bytes };
  }

  /**
   * Where a body of `length` bytes (`size` with its key) goes: at the hand, once the answers in the way are
   * passed, and while the memory would hold more than `maxBytes`, the next ones too. When too few bytes
   * are left before the ring's end, the hand passes them and goes on from the start. An answer recalled
   * since the last pass loses its mark when the hand goes over it, so the hand forgets it the next time;
   * only answers in use can stop it: after going twice round them, null (the answer is not kept).
   */
  #room(length: number, size: number): number | null {
    // Twice round the ring: every mark is cleared in the first round, so only answers in use are left after.
    let passes = 2 * (this.#inRing.length - this.#first);
    for (;;) {
      const next = this.#inRing[this.#first];
      // Nothing in the ring (so nothing kept either): write from its start.
      if (!next) return 0;
      const wraps = this.#hand + length > this.maxBytes;
      if (wraps && next.start < this.#hand) {
        // Too few bytes before the ring's end, and nothing left there: go on from the start.
        this.#hand = 0;
        continue;
      }
      // Too few bytes before the ring's end: the hand passes what is there first.
      const inTheWay = wraps || (next.start >= this.#hand && next.start < this.#hand + length);
      if (!inTheWay && this.#bytes + size <= this.maxBytes) return this.#hand;
      if (passes-- === 0) return null;
      this.#pass(next);
    }
  }

  /**
   * The hand passes the next answer in the ring: one recalled since the last pass, or whose body may be in
   * use, stays (the hand goes over it); any other is forgotten, its bytes free.
   */
  #pass(next: Kept): void {
    this.#first++;
    if ((next.live && next.recalled) || next.inUse > 0) {
      next.recalled = false;
      this.#inRing.push(next);
      this.#hand = next.start + next.length;
    } else if (next.live) {
      this.forget(next.key);
    }
    if (this.#first > 1024 && this.#first * 2 > this.#inRing.length) {
      this.#inRing = this.#inRing.slice(this.#first);
      this.#first = 0;
    }
  }
}

/** What an answer counts against the memory's bytes: its key and its body as kept. */
function sizeOf(key: string, bodyLength: number): number {
  return key.length + bodyLength;
}
