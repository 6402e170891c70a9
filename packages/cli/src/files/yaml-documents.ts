import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
  visit,
} from "yaml";
import { CliError } from "../errors/cli-error.js";
import type { InputFile } from "./read-file.js";

/**
 * The most nodes one document may hold once its YAML aliases are expanded.
 * `maxAliasCount` alone lets 99 aliases to one big list through, and every
 * step after parsing walks each alias separately; the same bound as the
 * library's loaders.
 */
export const MAX_EXPANDED_NODES = 1_000_000;

/**
 * Returns the number of nodes of `document` with aliases expanded, stopping
 * once it passes `limit`, or `{ unresolvedAt }` for an alias with no anchor
 * before it. Linear in the document: each anchored node is sized once.
 */
function expandedSize(
  document: Document.Parsed,
  limit: number,
): { size: number } | { unresolvedAt: number | undefined } {
  const targets = new Map<Node, Node | undefined>();
  const anchors = new Map<string, Node>();
  visit(document, (_key, node) => {
    if (isAlias(node)) targets.set(node, anchors.get(node.source));
    else if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor !== undefined) {
      anchors.set(node.anchor, node);
    }
  });
  for (const [alias, target] of targets) {
    if (target === undefined) return { unresolvedAt: alias.range?.[0] };
  }
  const root = document.contents;
  if (root === null || !(isScalar(root) || isMap(root) || isSeq(root) || isAlias(root))) {
    return { size: 0 };
  }
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  const stack: { node: Node; children?: Node[] }[] = [{ node: root as Node }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { node: Node; children?: Node[] };
    if (sizes.has(top.node)) {
      stack.pop();
      continue;
    }
    if (top.children === undefined) {
      open.add(top.node);
      const children: Node[] = [];
      if (isAlias(top.node)) {
        const target = targets.get(top.node);
        if (target !== undefined && !open.has(target)) children.push(target);
      } else if (isMap(top.node) || isSeq(top.node)) {
        for (const item of top.node.items as unknown[]) {
          const parts = isPair(item) ? [item.key, item.value] : [item];
          for (const part of parts) {
            if (part !== null && typeof part === "object") children.push(part as Node);
          }
        }
      }
      top.children = children;
      for (const child of children) if (!sizes.has(child)) stack.push({ node: child });
      continue;
    }
    let size = isAlias(top.node) ? 0 : 1;
    for (const child of top.children) size += sizes.get(child) ?? 1;
    if (size > limit) return { size };
    sizes.set(top.node, size);
    open.delete(top.node);
    stack.pop();
  }
  return { size: sizes.get(root as Node) ?? 0 };
}

/** How {@link yamlDocuments} reports problems. */
export interface YamlDocumentsOptions {
  /**
   * The file holds secrets: a problem is reported by file, position and the
   * YAML library's error code only, never with a piece of the text (an
   * unquoted `*S3CRET` is otherwise quoted back as an unresolved alias).
   */
  readonly secret?: boolean;
  /** YAML version of untagged scalars (default 1.2; manifests are read as 1.1 by kubectl). */
  readonly version?: "1.1" | "1.2";
}

/**
 * Returns the documents of a YAML (or JSON) file as plain values, empty
 * documents left out. A syntax error or an alias with no anchor is an
 * `INVALID_YAML` {@link CliError} naming the file, line and column; a
 * document that its aliases expand past {@link MAX_EXPANDED_NODES} nodes is
 * `YAML_TOO_LARGE`. With `secret`, no message quotes the text.
 *
 * @example
 * ```ts
 * yamlDocuments({ name: "crs.yaml", text: "a: 1\n---\nb: 2\n" }); // [{ a: 1 }, { b: 2 }]
 * ```
 */
export function yamlDocuments(file: InputFile, options: YamlDocumentsOptions = {}): unknown[] {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(file.text, {
    uniqueKeys: true,
    lineCounter,
    ...(options.version === undefined ? {} : { version: options.version }),
  });
  const list = Array.isArray(documents) ? documents : [documents];
  const where = (offset: number | undefined) => {
    if (offset === undefined) return "";
    const { line, col } = lineCounter.linePos(offset);
    return `:${line}:${col}`;
  };
  for (const document of list) {
    const [error] = document.errors;
    if (error !== undefined) {
      const message = options.secret
        ? `invalid YAML (${error.code})`
        : `invalid YAML: ${(error.message.split("\n")[0] ?? error.code).replace(/ at line \d+, column \d+:?$/, "")}`;
      throw new CliError(
        "INVALID_YAML",
        `${file.name}${where(error.pos[0])}: ${message}`,
        file.name,
      );
    }
  }
  const values: unknown[] = [];
  list.forEach((document, index) => {
    const size = expandedSize(document, MAX_EXPANDED_NODES);
    if ("unresolvedAt" in size) {
      throw new CliError(
        "INVALID_YAML",
        `${file.name}${where(size.unresolvedAt)}: invalid YAML: an alias with no anchor before it`,
        file.name,
      );
    }
    if (size.size > MAX_EXPANDED_NODES) {
      throw new CliError(
        "YAML_TOO_LARGE",
        `${file.name}: document ${index}: more than ${MAX_EXPANDED_NODES} nodes once its aliases are expanded`,
        file.name,
      );
    }
    const value: unknown = document.toJS({ maxAliasCount: -1 });
    if (value !== null && value !== undefined) values.push(value);
  });
  return values;
}
