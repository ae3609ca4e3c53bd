/**
 * What a process remembers of rows it read, by key: frozen (every request that recalls a value shares it),
 * at most `capacity` values, the longest remembered forgotten first. The pipeline and access memories
 * (ADR 0009, 0013) hold theirs in one each.
 */
export interface FrozenMemory<Value> {
  get(key: string): Value | undefined;
  set(key: string, value: Value): void;
  delete(key: string): void;
}

export function frozenMemory<Value>(capacity: number): FrozenMemory<Value> {
  const byKey = new Map<string, Value>();
  return {
    get: (key) => byKey.get(key),
    set(key, value) {
      byKey.delete(key);
      byKey.set(key, deepFreeze(value));
      if (byKey.size > capacity) {
        const oldest = byKey.keys().next();
        if (!oldest.done) byKey.delete(oldest.value);
      }
    },
    delete(key) {
      byKey.delete(key);
    },
  };
}

/** Freezes a value read from a row (plain objects, arrays, dates) and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
