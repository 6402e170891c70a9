/**
 * Reading YAML text with a bound on what it expands to.
 *
 * `maxAliasCount` alone does not bound a document: 99 aliases to one large
 * list stay under it, and although the YAML library shares the aliased
 * value, everything downstream (dropping nulls, validation, explain traces)
 * walks and copies each alias separately: a 2–4 MB file then costs gigabytes.
 * So the size a document has once its aliases are expanded is computed on
 * the syntax tree first, in time linear in the tree (each anchored node's
 * size is computed once), and a document too large is refused before any
 * value is built.
 */
import type { Document, Node, LineCounter as YamlLineCounter } from "yaml";
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  visit,
} from "#yaml";
import { DEFAULT_MAX_EXPANDED_NODES } from "./yaml-limits.js";

/** Limits of {@link readYamlDocuments}. */
export interface YamlReadLimits {
  /** YAML version of untagged scalars: `"1.1"` as kubectl reads manifests (`yes` is true). */
  readonly version?: "1.1" | "1.2";
  /**
   * Most nodes one document may hold once its aliases are expanded (default
   * 1,000,000). A document written out in full is
   * never refused for its size alone unless it exceeds this too.
   */
  readonly maxExpandedNodes?: number;
}

export { DEFAULT_MAX_EXPANDED_NODES } from "./yaml-limits.js";

/** Where in the text something is, 1-based. */
export interface YamlPosition {
  readonly line: number;
  readonly col: number;
}

/** A problem found while reading; never carries the text itself.
 *
 * @inline
 */
export type YamlReadProblem =
  | {
      readonly kind: "syntax";
      readonly document: number;
      /** The YAML library's stable error code, e.g. `MISSING_CHAR`. */
      readonly code: string;
      /** The library's message (first line; it may quote the text). */
      readonly message: string;
      readonly position: YamlPosition | undefined;
    }
  | {
      readonly kind: "unresolved-alias";
      readonly document: number;
      readonly position: YamlPosition | undefined;
      /**
       * The alias stands inside the node its anchor names (`&a [*a]`): its
       * value would contain itself, which Go's YAML libraries refuse too.
       */
      readonly recursive?: boolean;
    }
  | {
      readonly kind: "too-large";
      readonly document: number;
      /** Nodes counted before giving up (more than `limit`). */
      readonly nodes: number;
      readonly limit: number;
    };

/** The result of {@link readYamlDocuments}. */
export type YamlReadResult =
  | { readonly ok: true; readonly values: readonly unknown[] }
  | { readonly ok: false; readonly problem: YamlReadProblem };

/**
 * Returns the number of nodes `document` holds with its aliases expanded, or
 * a number above `limit` as soon as that is certain; `undefined` for an
 * alias with no anchor before it (its node offset in `unresolved`).
 */
function expandedSize(
  document: Document.Parsed,
  limit: number,
): { size: number } | { unresolvedAt: number | undefined; recursive: boolean } {
  // Each alias's anchored node, found in one pass in document order (an
  // alias refers to the latest anchor of its name before it); the library's
  // own `resolve` searches the whole document once per alias.
  const targets = new Map<Node, Node | undefined>();
  const anchors = new Map<string, Node>();
  visit(document, (_key, node) => {
    if (isAlias(node)) {
      targets.set(node, anchors.get(node.source));
      return;
    }
    if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor !== undefined) {
      anchors.set(node.anchor, node);
    }
  });
  const sizes = new Map<Node, number>();
  const inProgress = new Set<Node>();
  let unresolvedAt: number | undefined;
  let unresolved = false;
  let recursive = false;
  // Iterative post-order walk: no recursion, so a deeply nested text cannot
  // overflow the stack here.
  const sizeOf = (root: Node): number => {
    const stack: { node: Node; children: Node[] | undefined }[] = [
      { node: root, children: undefined },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: Node; children: Node[] | undefined };
      const { node } = top;
      if (sizes.has(node)) {
        stack.pop();
        continue;
      }
      if (top.children === undefined) {
        inProgress.add(node);
        const children: Node[] = [];
        if (isAlias(node)) {
          const target = targets.get(node);
          if (target === undefined || inProgress.has(target)) {
            // Both are refused: no anchor, or an anchor whose node holds this
            // alias (its value would contain itself, and every copy of it
            // downstream would never end).
            unresolved = true;
            recursive = target !== undefined;
            unresolvedAt = node.range?.[0];
          } else children.push(target);
        } else if (isMap(node) || isSeq(node)) {
          for (const item of node.items as unknown[]) {
            if (isPair(item)) {
              if (item.key !== null && typeof item.key === "object")
                children.push(item.key as Node);
              if (item.value !== null && typeof item.value === "object")
                children.push(item.value as Node);
            } else if (item !== null && typeof item === "object") children.push(item as Node);
          }
        }
        top.children = children;
        for (const child of children)
          if (!sizes.has(child)) stack.push({ node: child, children: undefined });
        if (unresolved) return 0;
        continue;
      }
      let size = isAlias(top.node) ? 0 : 1;
      for (const child of top.children) size += sizes.get(child) ?? 1;
      sizes.set(node, Math.min(size, limit + 1));
      inProgress.delete(node);
      stack.pop();
      if (size > limit) return size;
    }
    return sizes.get(root) ?? 0;
  };
  const contents = document.contents;
  if (
    contents === null ||
    !(isScalar(contents) || isMap(contents) || isSeq(contents) || isAlias(contents))
  ) {
    return { size: 0 };
  }
  const size = sizeOf(contents as Node);
  if (unresolved) return { unresolvedAt, recursive };
  return { size };
}

/**
 * Returns the values of every document of `text` (empty documents as
 * `null`), or the first problem: a syntax error, an alias with no anchor
 * before it, or a document whose expanded size passes the limit. Problems
 * carry positions and codes, never a piece of the text, so a caller reading
 * a Secret can report them without leaking a value.
 *
 * @example
 * ```ts
 * import { describeYamlProblem, readYamlDocuments } from "@kubeimg/policy/objects";
 *
 * const r = readYamlDocuments("a: 1\n---\nb: 2\n", { version: "1.1" });
 * console.log(r.ok ? r.values : describeYamlProblem(r.problem)); // [ { a: 1 }, { b: 2 } ]
 * ```
 */
export function readYamlDocuments(text: string, limits: YamlReadLimits = {}): YamlReadResult {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, {
    version: limits.version ?? "1.2",
    lineCounter,
    prettyErrors: false,
  });
  return boundedValues(Array.isArray(documents) ? documents : [documents], {
    lineCounter,
    maxExpandedNodes: limits.maxExpandedNodes ?? DEFAULT_MAX_EXPANDED_NODES,
  });
}

/**
 * Returns the values of documents already parsed (with `lineCounter`
 * attached, if any), or the first problem, as {@link readYamlDocuments}
 * does. Internal to the package: every reader of YAML text in policy parses
 * with its own options (the pulled-record decoder reads one document with
 * Kubernetes' YAML rules) and then goes through this one step, so no reader
 * builds a value before its expanded size is known to be within the bound.
 *
 * @internal
 */
export function boundedValues(
  list: readonly Document.Parsed[],
  options: {
    readonly lineCounter?: YamlLineCounter;
    readonly maxExpandedNodes: number;
    /** Passed to `toJS` (`mapAsMap` for readers that keep key order and types). */
    readonly mapAsMap?: boolean;
  },
): YamlReadResult {
  const { lineCounter } = options;
  const at = (offset: number | undefined): YamlPosition | undefined =>
    offset === undefined || lineCounter === undefined ? undefined : lineCounter.linePos(offset);
  for (let index = 0; index < list.length; index++) {
    const [error] = (list[index] as Document.Parsed).errors;
    if (error !== undefined) {
      return {
        ok: false,
        problem: {
          kind: "syntax",
          document: index,
          code: error.code,
          message: error.message.split("\n")[0] ?? error.code,
          position: at(error.pos[0]),
        },
      };
    }
  }
  const limit = options.maxExpandedNodes;
  const values: unknown[] = [];
  for (let index = 0; index < list.length; index++) {
    const document = list[index] as Document.Parsed;
    const size = expandedSize(document, limit);
    if (!("size" in size)) {
      return {
        ok: false,
        problem: {
          kind: "unresolved-alias",
          document: index,
          position: at(size.unresolvedAt),
          ...(size.recursive ? { recursive: true } : {}),
        },
      };
    }
    if (size.size > limit) {
      return {
        ok: false,
        problem: { kind: "too-large", document: index, nodes: size.size, limit },
      };
    }
    // The size is bounded above; the alias count needs no second limit.
    values.push(document.toJS({ maxAliasCount: -1, mapAsMap: options.mapAsMap === true }));
  }
  return { ok: true, values };
}

/**
 * Returns a one-line description of `problem` that never quotes the text:
 * where, and what kind of problem.
 *
 * @example
 * ```ts
 * import { describeYamlProblem, readYamlDocuments } from "@kubeimg/policy/objects";
 *
 * const r = readYamlDocuments("a: 1\nb: *missing\n");
 * if (!r.ok) console.log(describeYamlProblem(r.problem));
 * // document 0, line 2, column 4: an alias with no anchor before it
 * ```
 */
export function describeYamlProblem(problem: YamlReadProblem): string {
  const where = (p: YamlPosition | undefined) =>
    p === undefined
      ? `document ${problem.document}`
      : `document ${problem.document}, line ${p.line}, column ${p.col}`;
  switch (problem.kind) {
    case "syntax":
      return `${where(problem.position)}: invalid YAML (${problem.code})`;
    case "unresolved-alias":
      return problem.recursive === true
        ? `${where(problem.position)}: an alias inside the node its anchor names`
        : `${where(problem.position)}: an alias with no anchor before it`;
    case "too-large":
      return `document ${problem.document}: more than ${problem.limit} nodes once its aliases are expanded`;
  }
}

/**
 * Returns `document N, line L, column C` (1-based line and column), or
 * `document N` without a position: where the loaders say a problem is.
 *
 * @internal
 */
export function syntaxWhere(document: number, position: YamlPosition | undefined): string {
  return position === undefined
    ? `document ${document}`
    : `document ${document}, line ${position.line}, column ${position.col}`;
}
