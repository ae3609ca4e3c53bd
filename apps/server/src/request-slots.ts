/**
 * At most `size` requests at work at once; the others wait their turn, first come first served.
 *
 * A request's allocations (rows, domain and wire objects, its JSON) live until it is answered. With many
 * requests at work together, each lives long enough for V8 to promote what it holds out of the young
 * generation, and the old space's collections then cost more than the requests themselves (a list page
 * cost 3.4 ms of CPU with 8 requests in flight and 5.4 ms with 32). Requests that wait hold next to
 * nothing; the ones at work finish sooner and leave their garbage young (docs/performance.md).
 */
export interface RequestSlots {
  /** Resolves when the request may start; call `release` exactly once after, whatever happens. */
  acquire(): Promise<void>;
  release(): void;
  /** requests at work, and waiting */
  readonly active: number;
  readonly waiting: number;
}

export function requestSlots(size: number): RequestSlots {
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`request slots must be a positive integer: ${size}`);
  let active = 0;
  const queue: Array<() => void> = [];
  return {
    acquire() {
      if (active < size) {
        active += 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => queue.push(resolve));
    },
    release() {
      // The slot passes straight to the next waiting request, so `active` never exceeds `size`.
      const next = queue.shift();
      if (next) next();
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
