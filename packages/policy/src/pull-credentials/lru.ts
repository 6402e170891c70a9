/**
 * A bounded LRU map with the kubelet's "authoritative" flag: the cache is
 * authoritative when it is known to hold every stored entry, so a miss means
 * "absent". Any eviction for capacity (not an explicit delete) ends that.
 *
 * Recency lives in a doubly linked list beside the `Map`, so a hit only moves
 * pointers (re-inserting into a `Map` on every hit makes V8 rehash it).
 */
interface Node<V> {
  readonly key: string;
  value: V;
  newer: Node<V> | undefined;
  older: Node<V> | undefined;
}

export class AuthoritativeLru<V> {
  readonly capacity: number;
  authoritative = false;
  readonly #map = new Map<string, Node<V>>();
  #newest: Node<V> | undefined;
  #oldest: Node<V> | undefined;

  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.trunc(capacity) || 1);
  }

  get size(): number {
    return this.#map.size;
  }

  #unlink(node: Node<V>): void {
    if (node.newer) node.newer.older = node.older;
    else this.#newest = node.older;
    if (node.older) node.older.newer = node.newer;
    else this.#oldest = node.newer;
    node.newer = undefined;
    node.older = undefined;
  }

  #pushNewest(node: Node<V>): void {
    node.older = this.#newest;
    node.newer = undefined;
    if (this.#newest) this.#newest.newer = node;
    this.#newest = node;
    if (!this.#oldest) this.#oldest = node;
  }

  get(key: string): V | undefined {
    const node = this.#map.get(key);
    if (node === undefined) return undefined;
    if (node !== this.#newest) {
      this.#unlink(node);
      this.#pushNewest(node);
    }
    return node.value;
  }

  set(key: string, value: V): void {
    const existing = this.#map.get(key);
    if (existing !== undefined) {
      existing.value = value;
      if (existing !== this.#newest) {
        this.#unlink(existing);
        this.#pushNewest(existing);
      }
      return;
    }
    const node: Node<V> = { key, value, newer: undefined, older: undefined };
    this.#map.set(key, node);
    this.#pushNewest(node);
    if (this.#map.size > this.capacity) {
      const oldest = this.#oldest as Node<V>;
      this.#unlink(oldest);
      this.#map.delete(oldest.key);
      this.authoritative = false;
    }
  }

  delete(key: string): void {
    const node = this.#map.get(key);
    if (node === undefined) return;
    this.#unlink(node);
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
    this.#newest = undefined;
    this.#oldest = undefined;
  }
}
