/**
 * Copies of objects read from secret files, made safe before they reach the
 * keyring: objects without prototype, keys defined rather than assigned,
 * and `__proto__`, `constructor` and `prototype` taken out (and reported):
 * to Kubernetes they are unknown fields, never a way to supply a value.
 */

const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
const MAX_DEPTH = 200;

/**
 * Returns `value` copied without prototypes and without the keys
 * `__proto__`, `constructor` and `prototype`, with the dotted path of each
 * key taken out; nesting deeper than 200 levels is cut there (and reported
 * as such a path ending in `…`).
 */
export function plainCopy(value: unknown): { value: unknown; removed: string[] } {
  const removed: string[] = [];
  const copy = (v: unknown, path: string, depth: number): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (depth >= MAX_DEPTH) {
      removed.push(`${path}…`);
      return undefined;
    }
    if (Array.isArray(v)) return v.map((item, i) => copy(item, `${path}[${i}]`, depth + 1));
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(v)) {
      const at = path === "" ? key : `${path}.${key}`;
      if (PROTOTYPE_KEYS.has(key)) {
        removed.push(at);
        continue;
      }
      Object.defineProperty(out, key, {
        value: copy((v as Record<string, unknown>)[key], at, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return { value: copy(value, "", 0), removed };
}
