/**
 * A small JSON Schema checker for the keywords the published policy-test
 * schema uses (type, enum, const, properties, required,
 * additionalProperties, items, oneOf, minimum). Any other keyword throws,
 * so the schema cannot grow past what this checks without the test saying so.
 */

type Schema = Record<string, unknown>;

const KNOWN = new Set([
  "$schema",
  "$id",
  "title",
  "description",
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "oneOf",
  "minimum",
]);

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    default:
      throw new Error(`schema type ${type} is not supported by this checker`);
  }
}

/** Returns the problems of `value` against `schema` (empty: valid). */
export function schemaProblems(schema: Schema, value: unknown, path = "$"): string[] {
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key)) throw new Error(`schema keyword ${key} is not supported by this checker`);
  }
  if (schema.oneOf !== undefined) {
    const matching = (schema.oneOf as Schema[]).filter(
      (s) => schemaProblems(s, value, path).length === 0,
    );
    if (matching.length !== 1) return [`${path}: matches ${matching.length} of oneOf`];
  }
  if (typeof schema.type === "string" && !typeMatches(schema.type, value)) {
    return [`${path}: not ${schema.type}`];
  }
  const problems: string[] = [];
  if (schema.enum !== undefined && !(schema.enum as unknown[]).includes(value)) {
    problems.push(`${path}: not in enum`);
  }
  if (schema.const !== undefined && schema.const !== value) problems.push(`${path}: not const`);
  if (typeof schema.minimum === "number" && (value as number) < schema.minimum) {
    problems.push(`${path}: below minimum`);
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) => {
      problems.push(...schemaProblems(schema.items as Schema, item, `${path}[${i}]`));
    });
  }
  if (typeMatches("object", value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in object)) problems.push(`${path}: ${key} is required`);
    }
    for (const [key, item] of Object.entries(object)) {
      const property = properties[key];
      if (property !== undefined)
        problems.push(...schemaProblems(property, item, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not allowed`);
      else if (typeof schema.additionalProperties === "object") {
        problems.push(
          ...schemaProblems(schema.additionalProperties as Schema, item, `${path}.${key}`),
        );
      }
    }
  }
  return problems;
}
