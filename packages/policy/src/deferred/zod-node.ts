/**
 * `#zod` in Node: the functions of `./zod-default.ts`, each loading zod on
 * its first call. Evaluating zod costs a fresh process about as much CPU as
 * starting Node itself, and most processes that import a subpath never parse
 * a user object; the schemas are built on their first use (see
 * `@kubeimg/core/internal`'s `lazy`), so zod loads then. Parsing stays
 * synchronous, so zod comes from Node's `require` (its CommonJS build).
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

export const _default = forward("_default");
export const array = forward("array");
export const boolean = forward("boolean");
export const discriminatedUnion = forward("discriminatedUnion");
const _enum = forward("enum");

export { _enum as enum };
export const extend = forward("extend");
export const int = forward("int");
export const literal = forward("literal");
export const looseObject = forward("looseObject");
export const maxLength = forward("maxLength");
export const minLength = forward("minLength");
export const nonnegative = forward("nonnegative");
export const nullable = forward("nullable");
export const nullish = forward("nullish");
export const number = forward("number");
export const object = forward("object");
export const optional = forward("optional");
export const pipe = forward("pipe");
export const prefault = forward("prefault");
export const record = forward("record");
export const refine = forward("refine");
export const regex = forward("regex");
export const safeParse = forward("safeParse");
export const strictObject = forward("strictObject");
export const string = forward("string");
export const superRefine = forward("superRefine");
export const transform = forward("transform");
/**
 * What a transform returns once it has reported an issue; zod reads only
 * the issue, never this value, so a value of the same shape stands in.
 */
export const NEVER = Object.freeze({ status: "aborted" }) as typeof Z.NEVER;

/** zod's English locale, loading zod's locales on the first call. */
export const en: typeof ZodLocales.en = () => {
  locales ??= nodeCreateRequire(import.meta.url)("zod/locales") as typeof ZodLocales;
  return locales.en();
};
