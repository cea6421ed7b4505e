// The one way the caches of texts, widths and frame cells are read: what the cache holds for a
// key, or else made now and kept. The cache decides how much it keeps (quick-lru, a WeakMap).

interface Cache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
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
