// The one way the caches of texts, widths and frame cells are read: what the cache holds for a
// key, or else made now and kept. The cache decides how much it keeps (quick-lru, a WeakMap).

interface Cache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/**
 * A Map that empties itself when a new key would take it past `limit` entries: a bound with no
 * bookkeeping, for caches whose entries are all as likely to come back (what a frame draws).
 */
export class ClearingMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}

/** `cache`'s value for `key`, made by `make` and kept when it has none. Values are never undefined. */
export function remembered<K, V>(cache: Cache<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}
