/**
 * Loading `zod/mini` on first use, not at import (the same loader as
 * `@kubeimg/policy`'s, kept private to each package).
 *
 * Evaluating zod costs a fresh process about as much CPU as starting Node
 * itself, and most callers of a subpath never parse a user object in that
 * process (a webhook routes pods with a compiled routing, a CLI run selects
 * one tag). Every schema is therefore built by a function that receives zod,
 * the first time a schema is used; the exported schema constants are
 * stand-ins that build theirs on first touch and then behave as the schema.
 *
 * The load is synchronous (parsing stays synchronous): a bundler sees the
 * literal `require("zod/mini")` and bundles zod in, CommonJS has `require`,
 * and an ES module in Node gets one from `process.getBuiltinModule`.
 */

import type * as ZodLocales from "zod/locales";
import type * as Z from "zod/mini";

type Require = (id: string) => unknown;
/** CommonJS's `require`, where the module runs as CommonJS or a bundler provides it. */
declare const require: Require;

let zod: typeof Z | undefined;
let locales: typeof ZodLocales | undefined;

/** A `require` for this module's location, in Node (`process.getBuiltinModule`, Node 20.16+). */
function nodeRequire(): Require | undefined {
  const host = globalThis as {
    process?: { getBuiltinModule?: (id: string) => unknown };
  };
  const nodeModule = host.process?.getBuiltinModule?.("node:module") as
    | { createRequire(url: string): Require }
    | undefined;
  const url: unknown = import.meta.url;
  return nodeModule !== undefined && typeof url === "string"
    ? nodeModule.createRequire(url)
    : undefined;
}

/** `literal()` (a `require` a bundler can see), else Node's `require` of `id`. */
function load(literal: () => unknown, id: string): unknown {
  try {
    return literal();
  } catch (error) {
    // An ES module run by Node: no `require` (or a bundler's stub that throws).
    const fallback = nodeRequire();
    if (fallback === undefined) {
      throw new Error(
        `kubeimg loads ${id} on first use: run Node 20.16 or later (process.getBuiltinModule), or bundle kubeimg (${String(error)})`,
      );
    }
    return fallback(id);
  }
}

/** `zod/mini`, loaded on the first call. */
export function zodMini(): typeof Z {
  if (zod === undefined) {
    zod = load(() => require("zod/mini"), "zod/mini") as typeof Z;
  }
  return zod;
}

/** `zod/locales`, loaded on the first call. */
export function zodLocales(): typeof ZodLocales {
  if (locales === undefined) {
    locales = load(() => require("zod/locales"), "zod/locales") as typeof ZodLocales;
  }
  return locales;
}

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
