import type { ParentWindow } from '@ci/application';
import { raw } from '@mikro-orm/postgresql';

/**
 * A filter of a batched list's rows: those (by `id`) in their parent's window. `list` selects the `id`s of
 * the list of the parent `w.parent_id`, in the list's order, ending in `offset w.off limit w.lim`; its own
 * `?` parameters follow the windows'. One statement for any number of parents, each window read on its
 * own index: neither `find` nor a populate's limit takes a window per parent.
 */
export function inParentWindows(
  windows: readonly ParentWindow[],
  list: string,
  params: readonly unknown[] = [],
) {
  const values = windows.map(() => '(?::uuid, ?::int, ?::int)').join(', ');
  return raw(
    (alias: string) =>
      `${alias}.id in (select x.id from (values ${values}) as w(parent_id, off, lim) cross join lateral (${list}) x)`,
    [...windows.flatMap((window) => [window.parentId, window.offset, window.limit]), ...params],
  );
}
