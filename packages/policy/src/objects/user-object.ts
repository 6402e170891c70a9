/**
 * Copying objects a user wrote (CRs, configs, files) before they are
 * validated.
 *
 * A plain `{}` filled with `out[key] = value` turns a user key `__proto__`
 * into the copy's prototype, and zod reads inherited properties: a CR with
 * `spec.__proto__: { filter: … }` then supplies a `filter` it never names.
 * Go's decoders, which kuik and Flux run, see `__proto__`, `constructor` and
 * `prototype` as unknown fields like any other. So copies here have no
 * prototype, keys are defined rather than assigned, and the three names are
 * taken out and reported as unknown fields, never passed on.
 */

/** Keys that mean something to JavaScript objects; to us they are unknown fields. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
]);

/** How deep a user object may nest before it is refused (no stack overflow). */
export const MAX_OBJECT_DEPTH = 200;

/** The result of {@link copyUserValue}. */
export interface UserValueCopy {
  /** The copy: objects without prototype, `null` members dropped when asked. */
  readonly value: unknown;
  /** Where a `__proto__`, `constructor` or `prototype` key was taken out. */
  readonly prototypeKeys: readonly (readonly (string | number)[])[];
  /** Set when the value nests deeper than {@link MAX_OBJECT_DEPTH}: the path where it stopped. */
  readonly tooDeep?: readonly (string | number)[];
}

/** Returns a fresh object without prototype (`{}` would inherit from `Object.prototype`). */
export function emptyRecord(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Defines `key` on `target` as a plain data property (never the `__proto__` setter). */
export function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Returns a copy of `value` that is safe to validate: every object rebuilt
 * without prototype, the keys {@link PROTOTYPE_KEYS} taken out (their paths
 * reported), and `null` members dropped when `dropNulls` is set (as the API
 * server does for fields that are not nullable).
 */
export function copyUserValue(value: unknown, options: { dropNulls: boolean }): UserValueCopy {
  const prototypeKeys: (string | number)[][] = [];
  let tooDeep: (string | number)[] | undefined;
  const path: (string | number)[] = [];
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (path.length >= MAX_OBJECT_DEPTH) {
      tooDeep ??= [...path];
      return undefined;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        out.push(copy(v[i]));
        path.pop();
      }
      return out;
    }
    const out = emptyRecord();
    for (const key of Object.keys(v)) {
      if (PROTOTYPE_KEYS.has(key)) {
        prototypeKeys.push([...path, key]);
        continue;
      }
      const member = (v as Record<string, unknown>)[key];
      if (options.dropNulls && member === null) continue;
      path.push(key);
      defineField(out, key, copy(member));
      path.pop();
    }
    return out;
  };
  const copied = copy(value);
  return { value: copied, prototypeKeys, ...(tooDeep === undefined ? {} : { tooDeep }) };
}

/** Returns `value` when it is a non-array object, else `undefined`. */
export function asUserRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
