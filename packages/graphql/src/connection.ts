import type { ListPart, PartRequest, RowWindow } from '@ci/application';
import { badRequest } from '@ci/domain';
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/** The most items a connection gives at once (`first` or `last`), as the public API allows. */
export const MAX_PAGE_SIZE = 500;
/** Items given when the client asks for neither `first` nor `last`: REST's default page size. */
export const DEFAULT_PAGE_SIZE = 30;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface ConnectionResult<T> {
  /** The list's total; null when it was not counted (`count` not selected). */
  count: number | null;
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

const CURSOR_PREFIX = 'cursor:';

/** An opaque cursor: the item's position in the list. */
export function cursorFor(position: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${position}`).toString('base64');
}

function positionOf(cursor: string, argument: string): number {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const position = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(position) || position < 0 || cursorFor(position) !== cursor) {
    throw badRequest('invalid_cursor', `Argument "${argument}" is not a cursor of this connection`);
  }
  return position;
}

function size(value: number | null | undefined, argument: string): number | null {
  if (value === null || value === undefined) return null;
  if (value < 0 || value > MAX_PAGE_SIZE) {
    throw badRequest('invalid_page_size', `Argument "${argument}" must be between 0 and ${MAX_PAGE_SIZE}`);
  }
  return value;
}

/**
 * The rows Relay's arguments ask for, as positions in the list: `after`/`before` bound the slice,
 * `first` takes from its start, `last` from its end. `last` without `before` counts from the end of
 * the list, so it needs the total first (`totalCount`); without it, `needsTotal` says so.
 */
export function windowFor(
  args: ConnectionArgs,
  totalCount?: number,
): { window: RowWindow; needsTotal: false } | { needsTotal: true } {
  const first = size(args.first, 'first');
  const last = size(args.last, 'last');
  const start = args.after ? positionOf(args.after, 'after') + 1 : 0;
  let end = args.before ? positionOf(args.before, 'before') : Number.POSITIVE_INFINITY;
  if (totalCount !== undefined) end = Math.min(end, totalCount);
  end = Math.max(end, start);
  if (first !== null) end = Math.min(end, start + first);
  let from = start;
  if (last !== null) {
    if (end === Number.POSITIVE_INFINITY) return { needsTotal: true };
    from = Math.max(start, end - last);
  } else if (first === null) {
    end = Math.min(end, start + DEFAULT_PAGE_SIZE);
  }
  return { window: { offset: from, limit: end - from }, needsTotal: false };
}

/** A connection over the rows of `window`, given the list's total. */
function connectionOf<T>(items: readonly T[], window: RowWindow, totalCount: number): ConnectionResult<T> {
  return connectionOver(items, window, totalCount, window.offset + items.length < totalCount);
}

/** The rows of `window` as edges, with what is known of the list around them. */
function connectionOver<T>(
  items: readonly T[],
  window: RowWindow,
  count: number | null,
  hasNextPage: boolean,
): ConnectionResult<T> {
  const edges = items.map((node, index) => new Edge(node, window.offset + index));
  return { count, edges, pageInfo: new PageInfo(window.offset, items.length, hasNextPage) };
}

/** An edge: its node, and its cursor, made only when read (most operations never select it). */
class Edge<T> {
  readonly node: T;
  readonly #position: number;

  constructor(node: T, position: number) {
    this.node = node;
    this.#position = position;
  }

  get cursor(): string {
    return cursorFor(this.#position);
  }
}

/** Where a window of `length` items from `offset` lies in its list; its cursors made only when read. */
class PageInfo {
  readonly hasPreviousPage: boolean;
  readonly hasNextPage: boolean;
  readonly #offset: number;
  readonly #length: number;

  constructor(offset: number, length: number, hasNextPage: boolean) {
    this.hasPreviousPage = offset > 0;
    this.hasNextPage = hasNextPage;
    this.#offset = offset;
    this.#length = length;
  }

  get startCursor(): string | null {
    return this.#length > 0 ? cursorFor(this.#offset) : null;
  }

  get endCursor(): string | null {
    return this.#length > 0 ? cursorFor(this.#offset + this.#length - 1) : null;
  }
}

/**
 * A connection over a list read by a use case that answers a window and the total together: one call,
 * or two when `last` counts from the end of a list whose length is not known yet.
 */
export async function resolveConnection<T>(
  args: ConnectionArgs,
  read: (window: RowWindow) => Promise<{ items: readonly T[]; totalCount: number }>,
): Promise<ConnectionResult<T>> {
  const planned = windowFor(args);
  const window = planned.needsTotal
    ? windowWithin(args, (await read({ offset: 0, limit: 0 })).totalCount)
    : planned.window;
  const { items, totalCount } = await read(window);
  return connectionOf(items, window, totalCount);
}

/** A connection over a list already in memory (a build's jobs, its meta-data). */
export function arrayConnection<T>(args: ConnectionArgs, items: readonly T[]): ConnectionResult<T> {
  const window = windowWithin(args, items.length);
  return connectionOf(items.slice(window.offset, window.offset + window.limit), window, items.length);
}

/** A window of a list whose length is known. */
function windowWithin(args: ConnectionArgs, totalCount: number): RowWindow {
  const planned = windowFor(args, totalCount);
  if (planned.needsTotal) throw new Error('a window with a known total always resolves');
  return planned.window;
}

/**
 * A connection over a window read one row past its end, uncounted: the extra row, when there is one,
 * says that the list goes on (`hasNextPage`) and is not shown.
 */
function lookAheadConnectionOf<T>(items: readonly T[], window: RowWindow): ConnectionResult<T> {
  const hasNextPage = items.length > window.limit;
  return connectionOver(hasNextPage ? items.slice(0, window.limit) : items, window, null, hasNextPage);
}

/** How one parent's connection is read: its window, and its total when already known. */
type Plan = { window: RowWindow; totalCount: number | null } | Error;

/**
 * The connections of several parents over one batched use case (`read` answers each parent's window, or
 * its refusal), in the order given, each its connection or its refusal. The lists are counted only when
 * the total is wanted (`withTotal`: the client selects `count`); otherwise each window is read one row
 * past its end, which decides `hasNextPage`. One call, or two when `last` counts from the end of lists
 * whose lengths are not known yet (the first call counts them).
 */
export async function resolveConnections<T>(input: {
  args: ConnectionArgs;
  parentIds: readonly string[];
  withTotal: boolean;
  read: (requests: readonly PartRequest[]) => Promise<Array<ListPart<T>>>;
}): Promise<Array<ConnectionResult<T> | Error>> {
  const { args, parentIds, read } = input;
  const planned = windowFor(args);
  let plans: Plan[];
  if (planned.needsTotal) {
    const totals = await read(
      parentIds.map((parentId) => ({ parentId, window: { offset: 0, limit: 0 }, withTotal: true })),
    );
    plans = totals.map((part) => {
      if (!('items' in part)) return part;
      const totalCount = totalOf(part);
      return { window: windowWithin(args, totalCount), totalCount };
    });
  } else {
    plans = parentIds.map(() => ({ window: planned.window, totalCount: null }));
  }
  const requests: PartRequest[] = [];
  parentIds.forEach((parentId, index) => {
    const plan = plans[index];
    if (!plan || plan instanceof Error) return;
    const { window } = plan;
    // A list not counted yet is counted now when the total is wanted, otherwise read one row further.
    const uncounted = plan.totalCount === null;
    const lookAhead = uncounted && !input.withTotal;
    requests.push({
      parentId,
      window: lookAhead ? { offset: window.offset, limit: window.limit + 1 } : window,
      withTotal: uncounted && input.withTotal,
    });
  });
  const parts = await read(requests);
  const byParent = new Map(requests.map((request, index) => [request.parentId, parts[index]]));
  return parentIds.map((parentId, index) => {
    const plan = plans[index];
    const part = byParent.get(parentId);
    if (plan instanceof Error) return plan;
    if (!plan || !part) throw new Error('every readable parent has a part');
    if (!('items' in part)) return part;
    if (plan.totalCount !== null) return connectionOf(part.items, plan.window, plan.totalCount);
    return input.withTotal
      ? connectionOf(part.items, plan.window, totalOf(part))
      : lookAheadConnectionOf(part.items, plan.window);
  });
}

/** The total of a part read with `withTotal`: a use case answers it then (`ListPart`), never null. */
function totalOf(part: { totalCount: number | null }): number {
  if (part.totalCount === null) throw new Error('a list part read with its total came without it');
  return part.totalCount;
}

const countSelected = new WeakMap<readonly FieldNode[], boolean>();

/**
 * Whether the client selects the connection's `count` (directly, in an inline fragment or through a
 * fragment spread): only then is its list counted. Remembered per field nodes, which every item of a
 * page shares.
 */
export function selectsCount(info: GraphQLResolveInfo): boolean {
  let found = countSelected.get(info.fieldNodes);
  if (found === undefined) {
    const visited = new Set<string>();
    const inSet = (set: SelectionSetNode | undefined): boolean =>
      set?.selections.some((selection) => {
        if (selection.kind === Kind.FIELD) return selection.name.value === 'count';
        if (selection.kind === Kind.INLINE_FRAGMENT) return inSet(selection.selectionSet);
        const name = selection.name.value;
        if (visited.has(name)) return false;
        visited.add(name);
        return inSet(info.fragments[name]?.selectionSet);
      }) ?? false;
    found = info.fieldNodes.some((node) => inSet(node.selectionSet));
    countSelected.set(info.fieldNodes, found);
  }
  return found;
}
