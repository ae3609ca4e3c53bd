/**
 * At most `size` requests at work at once; the others wait their turn, first come first served.
 *
 * A request's allocations (rows, domain and wire objects, its JSON) live until it is answered. With many
 * requests at work together, each lives long enough for V8 to promote what it holds out of the young
 * generation, and the old space's collections then cost more than the requests themselves (a list page
 * cost 3.4 ms of CPU with 8 requests in flight and 5.4 ms with 32). Requests that wait hold next to
 * nothing; the ones at work finish sooner and leave their garbage young (docs/performance.md).
 *
 * At most `waitLimit` wait: past it a request is refused at once (the server answers 503), so that an
 * overload costs waiting clients an answer, not the server its memory and every request's latency.
 */
export interface RequestSlots {
  /**
   * Resolves true when the request may start (call `release` exactly once after, whatever happens), or
   * false at once when `waitLimit` requests wait already (no slot is taken: nothing to release).
   */
  acquire(): Promise<boolean>;
  release(): void;
  /** requests at work, and waiting */
  readonly active: number;
  readonly waiting: number;
}

export function requestSlots(size: number, waitLimit = Number.POSITIVE_INFINITY): RequestSlots {
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`request slots must be a positive integer: ${size}`);
  if (!(Number.isInteger(waitLimit) || waitLimit === Number.POSITIVE_INFINITY) || waitLimit < 0)
    throw new Error(`the waiting requests' limit must be a whole number: ${waitLimit}`);
  let active = 0;
  const queue: Array<(started: boolean) => void> = [];
  return {
    acquire() {
      if (active < size) {
        active += 1;
        return Promise.resolve(true);
      }
      if (queue.length >= waitLimit) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => queue.push(resolve));
    },
    release() {
      // The slot passes straight to the next waiting request, so `active` never exceeds `size`.
      const next = queue.shift();
      if (next) next(true);
      else if (active > 0) active -= 1;
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
