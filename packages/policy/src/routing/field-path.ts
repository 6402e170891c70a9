/** Field paths as Kubernetes prints them: `spec.mirrors[0].priority`. */

/**
 * Returns the dotted form of a path (`["spec","mirrors",0]` gives
 * `spec.mirrors[0]`).
 *
 * For example `["spec", "mirrors", 0, "priority"]` gives `spec.mirrors[0].priority`.
 */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Returns the value found at `path` inside `root`, or undefined. */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** A short printable form of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}
