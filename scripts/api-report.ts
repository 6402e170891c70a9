/**
 * The API report: for every public entry point of every published package
 * (each subpath of its `exports` map), the exported names with their
 * declarations, bodies and comments removed, written to
 * `api/<package>/<subpath>.api.md`. Reviewers see every change to the public
 * surface as a diff of these files.
 *
 *   tsx scripts/api-report.ts           # rewrite the reports (pnpm api:update)
 *   tsx scripts/api-report.ts --check   # fail when a report differs (pnpm api:check)
 *   tsx scripts/api-report.ts --counts  # print exported names per entry point
 *
 * Our own generator rather than api-extractor: it reads the source entry
 * points through the `@kubeimg/source` condition (no build needed), follows
 * `export * as ns` namespaces, and prints declarations as written, so the
 * reports stay short and stable.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { repoRoot } from "./conformance/runner.js";

interface EntryPoint {
  readonly packageName: string;
  readonly subpath: string;
  readonly file: string;
  readonly report: string;
}

/** Every `@kubeimg/source` entry of every non-private package's exports map. */
function entryPoints(): EntryPoint[] {
  const out: EntryPoint[] = [];
  for (const dir of readdirSync(join(repoRoot, "packages")).sort()) {
    const manifestPath = join(repoRoot, "packages", dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      name: string;
      private?: boolean;
      exports?: Record<string, string | Record<string, unknown>>;
    };
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== "object" || typeof target["@kubeimg/source"] !== "string") continue;
      const file = join(repoRoot, "packages", dir, target["@kubeimg/source"] as string);
      const name = subpath === "." ? "index" : subpath.slice(2).replaceAll("/", "-");
      out.push({
        packageName: manifest.name,
        subpath,
        file,
        report: join(repoRoot, "api", dir, `${name}.api.md`),
      });
    }
  }
  return out;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

function isHidden(member: ts.ClassElement): boolean {
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  if (ts.isClassStaticBlockDeclaration(member)) return true;
  const flags = ts.getCombinedModifierFlags(member as ts.Declaration);
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
}

/** A declaration without bodies, initializers or comments. */
function strip(node: ts.Node, checker: ts.TypeChecker): ts.Node {
  const f = ts.factory;
  const typeOf = (n: ts.Node): ts.TypeNode | undefined =>
    checker.typeToTypeNode(
      checker.getTypeAtLocation(n),
      undefined,
      ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.IgnoreErrors,
    );
  if (ts.isFunctionDeclaration(node)) {
    return f.updateFunctionDeclaration(
      node,
      node.modifiers?.filter((m) => m.kind !== ts.SyntaxKind.DefaultKeyword),
      node.asteriskToken,
      node.name,
      node.typeParameters,
      node.parameters,
      node.type ??
        checker.typeToTypeNode(
          checker.getReturnTypeOfSignature(
            checker.getSignatureFromDeclaration(node) as ts.Signature,
          ),
          undefined,
          ts.NodeBuilderFlags.NoTruncation,
        ),
      undefined,
    );
  }
  if (ts.isClassDeclaration(node)) {
    const members: ts.ClassElement[] = [];
    for (const m of node.members) {
      if (isHidden(m)) continue;
      if (ts.isMethodDeclaration(m)) {
        members.push(
          f.updateMethodDeclaration(
            m,
            m.modifiers,
            m.asteriskToken,
            m.name,
            m.questionToken,
            m.typeParameters,
            m.parameters,
            m.type,
            undefined,
          ),
        );
      } else if (ts.isConstructorDeclaration(m)) {
        const params = m.parameters.map((p) =>
          f.updateParameterDeclaration(
            p,
            p.modifiers?.filter(
              (mod) =>
                mod.kind !== ts.SyntaxKind.PrivateKeyword &&
                mod.kind !== ts.SyntaxKind.ProtectedKeyword,
            ),
            p.dotDotDotToken,
            p.name,
            p.questionToken,
            p.type,
            undefined,
          ),
        );
        members.push(f.updateConstructorDeclaration(m, m.modifiers, params, undefined));
      } else if (ts.isPropertyDeclaration(m)) {
        members.push(
          f.updatePropertyDeclaration(
            m,
            m.modifiers,
            m.name,
            m.questionToken ?? m.exclamationToken,
            m.type ?? typeOf(m),
            undefined,
          ),
        );
      } else if (ts.isGetAccessorDeclaration(m)) {
        members.push(
          f.updateGetAccessorDeclaration(m, m.modifiers, m.name, m.parameters, m.type, undefined),
        );
      } else if (ts.isSetAccessorDeclaration(m)) {
        members.push(
          f.updateSetAccessorDeclaration(m, m.modifiers, m.name, m.parameters, undefined),
        );
      } else {
        members.push(m);
      }
    }
    return f.updateClassDeclaration(
      node,
      node.modifiers?.filter((m) => m.kind !== ts.SyntaxKind.DefaultKeyword),
      node.name,
      node.typeParameters,
      node.heritageClauses,
      members,
    );
  }
  if (ts.isVariableDeclaration(node)) {
    const list = node.parent as ts.VariableDeclarationList;
    const flags = list.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let);
    return f.createVariableStatement(
      [f.createModifier(ts.SyntaxKind.DeclareKeyword)],
      f.createVariableDeclarationList(
        [f.createVariableDeclaration(node.name, undefined, node.type ?? typeOf(node), undefined)],
        flags,
      ),
    );
  }
  return node;
}

/** Drops the absolute `import("…")` qualifiers the checker writes for types from other files. */
function clean(text: string): string {
  return text.replace(/import\("[^"]*"\)\./g, "");
}

function render(symbol: ts.Symbol, checker: ts.TypeChecker, sourceFile: ts.SourceFile): string[] {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const blocks: string[] = [];
  for (const decl of target.declarations ?? []) {
    if (ts.isSourceFile(decl) || ts.isModuleDeclaration(decl) || ts.isNamespaceExport(decl)) {
      // `export * as ns`: list the namespace's members, one level deep.
      const inner = checker.getExportsOfModule(target).sort((a, b) => (a.name < b.name ? -1 : 1));
      blocks.push(
        `namespace ${symbol.name} {\n${inner
          .flatMap((m) => render(m, checker, sourceFile))
          .map((t) => `  ${t.replaceAll("\n", "\n  ")}`)
          .join("\n")}\n}`,
      );
      continue;
    }
    const node = strip(decl, checker);
    blocks.push(clean(printer.printNode(ts.EmitHint.Unspecified, node, decl.getSourceFile())));
  }
  return blocks;
}

interface Report {
  readonly entry: EntryPoint;
  readonly names: readonly string[];
  readonly text: string;
}

function reports(): Report[] {
  const entries = entryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error("cannot read tsconfig.json");
  const program = ts.createProgram(
    entries.map((e) => e.file),
    { ...config.options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  return entries.map((entry) => {
    const sourceFile = program.getSourceFile(entry.file);
    if (!sourceFile) throw new Error(`no source for ${entry.file}`);
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    const sorted = [...exported].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const importPath =
      entry.subpath === "." ? entry.packageName : `${entry.packageName}/${entry.subpath.slice(2)}`;
    const lines = [
      `# API report: \`${importPath}\``,
      "",
      "<!-- Generated by scripts/api-report.ts (pnpm api:update). Do not edit. -->",
      "",
      `${sorted.length} exported names.`,
      "",
    ];
    for (const symbol of sorted) {
      lines.push(
        `## ${symbol.name}`,
        "",
        "```ts",
        ...render(symbol, checker, sourceFile),
        "```",
        "",
      );
    }
    return { entry, names: sorted.map((s) => s.name), text: `${lines.join("\n").trimEnd()}\n` };
  });
}

function main(): void {
  const mode = process.argv[2];
  const all = reports();
  if (mode === "--counts") {
    let total = 0;
    for (const r of all) {
      total += r.names.length;
      const sub = r.entry.subpath === "." ? "" : `/${r.entry.subpath.slice(2)}`;
      console.log(`${r.entry.packageName}${sub}\t${r.names.length}`);
    }
    console.log(`total\t${total}`);
    return;
  }
  if (mode === "--check") {
    const stale: string[] = [];
    const expected = new Set(all.map((r) => r.entry.report));
    for (const r of all) {
      const current = existsSync(r.entry.report) ? readFileSync(r.entry.report, "utf8") : "";
      if (current !== r.text) stale.push(relative(repoRoot, r.entry.report));
    }
    const apiDir = join(repoRoot, "api");
    if (existsSync(apiDir)) {
      for (const dir of readdirSync(apiDir)) {
        for (const file of readdirSync(join(apiDir, dir))) {
          const path = join(apiDir, dir, file);
          if (!expected.has(path)) stale.push(`${relative(repoRoot, path)} (no such entry point)`);
        }
      }
    }
    if (stale.length > 0) {
      console.error(
        `api:check: the public API changed; review and run \`pnpm api:update\`:\n  ${stale.join("\n  ")}`,
      );
      process.exit(1);
    }
    console.log(`api:check: ${all.length} entry points match their reports`);
    return;
  }
  rmSync(join(repoRoot, "api"), { recursive: true, force: true });
  for (const r of all) {
    mkdirSync(dirname(r.entry.report), { recursive: true });
    writeFileSync(r.entry.report, r.text);
  }
  console.log(`api:update: wrote ${all.length} reports`);
}

main();
