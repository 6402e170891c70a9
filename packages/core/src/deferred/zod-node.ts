/**
 * `#zod` in Node: the functions of `./zod-default.ts`, each loading zod on
 * its first call (the same loader as `@kubeimg/policy`'s, kept private to
 * each package). Evaluating zod costs a fresh process about as much CPU as
 * starting Node itself, and most processes that import the keyring never
 * parse a Secret; the schemas are built on their first use (see
 * `../internal/lazy.ts`), so zod loads then. Parsing stays synchronous,
 * so zod comes from Node's `require` (its CommonJS build).
 */
// A name of its own: bundles often declare `createRequire` in a banner.
import { createRequire as nodeCreateRequire } from "node:module";
import type * as ZodLocales from "zod/locales";
import type * as Z from "zod/mini";

let zod: typeof Z | undefined;
let locales: typeof ZodLocales | undefined;

function zodMini(): typeof Z {
  zod ??= nodeCreateRequire(import.meta.url)("zod/mini") as typeof Z;
  return zod;
}

type Callable = (...args: unknown[]) => unknown;

/** `zod/mini`'s `key`, loading zod on the first call. */
function forward<K extends keyof typeof Z>(key: K): (typeof Z)[K] {
  return ((...args: unknown[]) => (zodMini()[key] as Callable)(...args)) as (typeof Z)[K];
}

export const nullable = forward("nullable");
export const object = forward("object");
export const optional = forward("optional");
export const record = forward("record");
export const safeParse = forward("safeParse");
export const string = forward("string");

/** zod's English locale, loading zod's locales on the first call. */
export const en: typeof ZodLocales.en = () => {
  locales ??= nodeCreateRequire(import.meta.url)("zod/locales") as typeof ZodLocales;
  return locales.en();
};
