/**
 * Test support: every way to plant `__proto__`, `constructor` and
 * `prototype` keys in an object a loader reads, as JSON text (where
 * `JSON.parse` makes `__proto__` an own key, as YAML and API clients do).
 */

/** The keys JavaScript objects give meaning to; to a loader they are unknown fields. */
export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype"] as const;

/** Values that would fill in fields of a routing, tag or config object if inherited. */
export const HOSTILE_PAYLOAD = {
  filter: { include: [{ image: ".*" }] },
  imageFilter: { include: [".*"] },
  credentialSecret: { name: "stolen", namespace: "kube-system" },
  registry: "evil.example.com",
  path: "/evil",
  name: "evil",
  namespace: "evil",
  priority: 99,
  filterTags: { pattern: ".*", extract: "" },
  exclusionList: ["^1\\."],
  insecure: true,
  routing: { activeCheck: { timeout: "9h" } },
  skipLabels: ["x"],
  policy: { alphabetical: {} },
  range: "*",
  order: "desc",
  type: "kubernetes.io/dockerconfigjson",
  data: { ".dockerconfigjson": "e30=" },
};

/** Returns the path of every object (not array) inside `value`, the root included. */
export function objectPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...path, i]));
  return [path, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...path, k]))];
}

/**
 * Returns `value` as JSON text with `"key": payload` added to the object at
 * `path`, so that parsing it gives an own `__proto__` key (an assignment in
 * test code would change the prototype instead).
 */
export function jsonWithKeyAt(
  value: unknown,
  path: readonly (string | number)[],
  key: string,
  payload: unknown = HOSTILE_PAYLOAD,
): string {
  const marker = "\u0000HOSTILE\u0000";
  const clone = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  let target: Record<string | number, unknown> = clone;
  for (const part of path) target = target[part] as Record<string | number, unknown>;
  target[marker] = payload;
  return JSON.stringify(clone).replace(JSON.stringify(marker), JSON.stringify(key));
}
