/**
 * Schemas built on first use, not at import: the helpers every kubeimg
 * package's schema modules share.
 *
 * Evaluating zod costs a fresh process about as much CPU as starting Node
 * itself, and most callers of a subpath never parse a user object in that
 * process (a webhook routes pods with a compiled routing, a CLI run selects
 * one tag). Every schema is therefore built by a function, the first time a
 * schema is used; the exported schema constants are stand-ins that build
 * theirs on first touch and then behave as the schema. zod itself comes from
 * each package's `#zod` import (see its `deferred/` folder).
 */

/** Calls `build` once, on the first call, and returns its result from then on. */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/**
 * A stand-in for the schema `build` returns, built on its first touch: it
 * reads, lists and checks (`instanceof`, `in`) as that schema does, so
 * `schema.safeParse(x)`, `z.safeParse(schema, x)` and composing it into
 * other schemas work unchanged.
 */
export function lazySchema<T extends object>(build: () => T): T {
  const target = {} as T;
  let real: T | undefined;
  const resolve = (): T => {
    if (real === undefined) {
      real = build();
      // The stand-in takes the schema's properties and prototype, so the
      // proxy's answers about non-configurable properties stay consistent.
      Object.defineProperties(target, Object.getOwnPropertyDescriptors(real));
      Object.setPrototypeOf(target, Object.getPrototypeOf(real));
    }
    return real;
  };
  return new Proxy(target, {
    get: (_, key) => Reflect.get(resolve(), key),
    set: (_, key, value) => Reflect.set(resolve(), key, value) && Reflect.set(target, key, value),
    has: (_, key) => Reflect.has(resolve(), key),
    ownKeys: () => {
      resolve();
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor: (_, key) => {
      resolve();
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    getPrototypeOf: () => {
      resolve();
      return Reflect.getPrototypeOf(target);
    },
  });
}
