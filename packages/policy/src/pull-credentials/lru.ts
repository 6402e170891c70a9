/**
 * A bounded LRU map with the kubelet's "authoritative" flag: the cache is
 * authoritative when it is known to hold every stored entry, so a miss means
 * "absent". Any eviction for capacity (not an explicit delete) ends that.
 */
export class AuthoritativeLru<V> {
  readonly capacity: number;
  authoritative = false;
  readonly #map = new Map<string, V>();

  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.trunc(capacity) || 1);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    const map = this.#map;
    const value = map.get(key);
    if (value === undefined) return undefined;
    // Refresh recency only when the entry is not already the newest.
    map.delete(key);
    map.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const map = this.#map;
    map.delete(key);
    map.set(key, value);
    if (map.size > this.capacity) {
      const oldest = map.keys().next().value as string;
      map.delete(oldest);
      this.authoritative = false;
    }
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
