/**
 * A bounded table of values shared by a text key, for what routing compiles
 * from text and never changes afterwards (patterns, filters, selectors, pod
 * matchers, joined prefixes). A cluster's CRs repeat the same few of each,
 * and a controller recompiles on every change, so computing each once per
 * process turns a cold compile into lookups. The table starts over when full,
 * which bounds memory whatever the input; values already handed out stay
 * valid. A computation that throws is remembered and thrown again.
 */
export class SharedTable<T> {
  readonly #values = new Map<string, { readonly value: T } | { readonly error: unknown }>();

  constructor(
    private readonly capacity: number,
    /** Which errors are answers to remember (others, such as bugs, propagate). */
    private readonly remembers: (error: unknown) => boolean,
  ) {}

  /** Returns the value for `key`, computing it with `make` the first time. */
  get(key: string, make: () => T): T {
    let entry = this.#values.get(key);
    if (entry === undefined) {
      try {
        entry = { value: make() };
      } catch (error) {
        if (!this.remembers(error)) throw error;
        entry = { error };
      }
      if (this.#values.size >= this.capacity) this.#values.clear();
      this.#values.set(key, entry);
    }
    if ("error" in entry) throw entry.error;
    return entry.value;
  }
}
