/**
 * `#yaml` in Node: the names of `./yaml-default.ts`, each loading `yaml` on
 * its first use. A YAML parser weighs a fresh process about half of Node's
 * own start, paid only by the callers that read text.
 */
// A name of its own: bundles often declare `createRequire` in a banner.
import { createRequire as nodeCreateRequire } from "node:module";
import type * as Y from "yaml";

let yaml: typeof Y | undefined;

function yamlModule(): typeof Y {
  yaml ??= nodeCreateRequire(import.meta.url)("yaml") as typeof Y;
  return yaml;
}

type Callable = (...args: unknown[]) => unknown;

/** `yaml`'s function `key`, loading `yaml` on the first call. */
function forward<K extends keyof typeof Y>(key: K): (typeof Y)[K] {
  return ((...args: unknown[]) => (yamlModule()[key] as Callable)(...args)) as (typeof Y)[K];
}

export const isAlias = forward("isAlias");
export const isMap = forward("isMap");
export const isPair = forward("isPair");
export const isScalar = forward("isScalar");
export const isSeq = forward("isSeq");
export const parseAllDocuments = forward("parseAllDocuments");
export const parseDocument = forward("parseDocument");
export const visit = forward("visit");
/** `new LineCounter()` returns `yaml`'s own `LineCounter` (a constructor may return an object). */
export const LineCounter = function LineCounter() {
  return new (yamlModule().LineCounter)();
} as unknown as typeof Y.LineCounter;
