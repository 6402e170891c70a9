/**
 * Unknown fields of a user object, found by walking it beside its zod
 * schema.
 *
 * The Kubernetes API server refuses (or warns about) fields its schema does
 * not know (`kubectl --validate=strict`); zod's default silently drops them,
 * so a misspelled `filterTag:` or `registy:` used to change the answer with
 * no word said. The walk reports each unknown field with its path and, when
 * one known field is close, the name it probably meant. Callers choose what
 * to do: refuse (the default everywhere), warn, or ignore.
 */
import type * as z from "zod/mini";
import { safeParse } from "#zod";
import { closestName } from "./edit-distance.js";

/** One field the schema does not know. */
export interface UnknownField {
  /** Path of the field, e.g. `["spec", "mirrors", 0, "registy"]`. */
  readonly path: readonly (string | number)[];
  /** The known field whose name is closest, when one is close enough. */
  readonly suggestion?: string;
}

/** What to do with unknown fields: refuse the object, report them, or drop them quietly. */
export type UnknownFieldPolicy = "strict" | "warn" | "ignore";

/** The policies of {@link UnknownFieldPolicy}, for validating an option. */
export const UNKNOWN_FIELD_POLICIES: readonly UnknownFieldPolicy[] = ["strict", "warn", "ignore"];

type AnySchema = z.core.$ZodType;

interface Def {
  readonly type: string;
  readonly innerType?: AnySchema;
  readonly in?: AnySchema;
  readonly getter?: () => AnySchema;
  readonly shape?: Readonly<Record<string, AnySchema>>;
  readonly catchall?: AnySchema;
  readonly element?: AnySchema;
  readonly valueType?: AnySchema;
  readonly options?: readonly AnySchema[];
  readonly discriminator?: string;
}

function defOf(schema: AnySchema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Unwraps optional, default, nullable, pipe (its input side), lazy and readonly wrappers. */
function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(current);
    const next =
      def.innerType ??
      (def.type === "pipe" ? def.in : def.type === "lazy" ? def.getter?.() : undefined);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function pickOption(def: Def, value: unknown): AnySchema | undefined {
  const options = def.options ?? [];
  if (def.discriminator !== undefined && isRecord(value)) {
    const wanted = value[def.discriminator];
    for (const option of options) {
      const shape = defOf(unwrap(option)).shape;
      const literal = shape?.[def.discriminator];
      const values = literal
        ? (defOf(literal) as { values?: readonly unknown[] }).values
        : undefined;
      if (values?.includes(wanted)) return option;
    }
    return undefined;
  }
  for (const option of options) {
    if (safeParse(option, value).success) return option;
  }
  return undefined;
}

/**
 * Returns every field of `value` that `schema` does not know, in document
 * order, with a "did you mean" suggestion where one known field is close.
 * Objects declared loose (`z.looseObject`, a catchall) accept any field.
 */
export function findUnknownFields(
  schema: AnySchema,
  value: unknown,
  prefix: readonly (string | number)[] = [],
): UnknownField[] {
  const out: UnknownField[] = [];
  const walk = (s: AnySchema, v: unknown, path: (string | number)[]): void => {
    if (path.length > 200) return;
    const inner = unwrap(s);
    const def = defOf(inner);
    switch (def.type) {
      case "object": {
        if (!isRecord(v)) return;
        const shape = def.shape ?? {};
        const known = Object.keys(shape);
        const open = def.catchall !== undefined && defOf(def.catchall).type !== "never";
        for (const key of Object.keys(v)) {
          const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
          if (field === undefined) {
            if (open) continue;
            const suggestion = closestName(key, known);
            out.push({ path: [...path, key], ...(suggestion ? { suggestion } : {}) });
            continue;
          }
          walk(field, v[key], [...path, key]);
        }
        return;
      }
      case "array": {
        if (!Array.isArray(v) || def.element === undefined) return;
        const element = def.element;
        v.forEach((item, i) => {
          walk(element, item, [...path, i]);
        });
        return;
      }
      case "record": {
        if (!isRecord(v) || def.valueType === undefined) return;
        for (const key of Object.keys(v)) walk(def.valueType, v[key], [...path, key]);
        return;
      }
      case "union": {
        const option = pickOption(def, v);
        if (option !== undefined) walk(option, v, path);
        return;
      }
      default:
        return;
    }
  };
  walk(schema, value, [...prefix]);
  return out;
}

/**
 * Returns `path` as Kubernetes writes field paths: `spec.mirrors[0].registy`.
 */
export function fieldPathText(path: readonly (string | number)[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? part : `.${part}`;
  }
  return text;
}

/**
 * Returns the one-line description of an unknown field, as `kubectl
 * --validate=strict` words it, plus the suggestion:
 * `unknown field "spec.filterTag" (did you mean "filterTags"?)`.
 */
export function describeUnknownField(field: UnknownField): string {
  const hint = field.suggestion === undefined ? "" : ` (did you mean "${field.suggestion}"?)`;
  return `unknown field "${fieldPathText(field.path)}"${hint}`;
}
