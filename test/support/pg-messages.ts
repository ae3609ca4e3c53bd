import type pg from 'pg';

/**
 * Counts the protocol messages of each of `kinds` (pg's connection methods: `parse`, `describe`, `sync`,
 * `close` …) a checked-out client sends from now on.
 */
export function countMessages<Kind extends string>(
  client: pg.PoolClient,
  kinds: readonly Kind[],
): Record<Kind, number> {
  const connection = (client as unknown as { connection: Record<string, (...args: unknown[]) => void> })
    .connection;
  const counts = {} as Record<Kind, number>;
  for (const kind of kinds) {
    const send = connection[kind]!.bind(connection);
    counts[kind] = 0;
    connection[kind] = (...args: unknown[]) => {
      counts[kind] += 1;
      send(...args);
    };
  }
  return counts;
}
