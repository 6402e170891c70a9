import type { Vector, VectorOutcome } from "./types.js";

/** Serialises JSON-like data with object keys sorted, so equal data compares equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = sortKeys(item);
    }
    return out;
  }
  return value;
}

/** True when two JSON-like values are equal, ignoring key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * The common vector shape: `expect` holds the exact result, or `error` holds
 * the exact error code. Runs `compute`; an exception with a string `code`
 * counts as that error, any other exception is a failure that shows it.
 */
export async function expectOrError(
  vector: Vector,
  compute: () => unknown | Promise<unknown>,
): Promise<VectorOutcome> {
  const expected = "error" in vector ? { error: vector.error } : { expect: vector.expect };
  let got: { expect: unknown } | { error: unknown };
  try {
    got = { expect: await compute() };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    got =
      typeof code === "string"
        ? { error: code }
        : { error: `unexpected exception: ${String((error as Error)?.stack ?? error)}` };
  }
  return { ok: jsonEqual(expected, got), expected, got };
}
