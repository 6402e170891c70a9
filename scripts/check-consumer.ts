/**
 * The consumer check, run by `pnpm check:packages` on the packed tarballs:
 * what a user gets from `npm install`, tried the way users try it, in a
 * scratch project outside the workspace (no pnpm links, no source
 * condition, no hoisted dev dependencies).
 *
 * - every entry of every tarball is imported from an ES module and required
 *   from CommonJS, and one function of each is called (scripts/consumer/);
 * - a file importing every entry type-checks with `tsc` under
 *   moduleResolution node16, bundler and node10;
 * - the code examples of the READMEs and doc comments compile as pasted
 *   (scripts/check-examples.ts);
 * - esbuild bundles the browser subpaths (platform browser, minify) within
 *   their gzip budgets, and a browser bundle of routing and tags parses a
 *   custom resource (valid and invalid) in a context with no Node in it;
 * - each tarball holds the LICENSE, the CLI tarball stays under 1 MB, and the
 *   Node-only builds keep `node:` in their built-in imports.
 *
 * The workspace's own `tsc` and esbuild are used, from outside the scratch
 * project, so only the tarballs (and their dependencies) are installed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { checkExamples } from "./check-examples.js";
import { repoRoot } from "./conformance/runner.js";

/**
 * Browser budgets (gzip bytes of `export * from "<subpath>"`, minified).
 * `target` is the goal the issue set; `ceiling` is what the check enforces.
 * Where the two differ the goal is not met yet, and the ceiling sits just
 * above the size reached so it cannot grow unnoticed: after the move to
 * `zod/mini`, YAML loading's move to `@kubeimg/policy/routing/yaml` and the
 * project's own Go regexp engine in place of re2js, and the Argo CD and
 * Kargo dialects' move to subpaths of their own, tags and routing are
 * within their goals.
 */
export const browserBudgets: Record<string, { target: number; ceiling: number }> = {
  "@kubeimg/core/reference": { target: 6 * 1024, ceiling: 6 * 1024 },
  "@kubeimg/policy/tags": { target: 60 * 1024, ceiling: 60 * 1024 },
  // No goal of their own: each dialect is kept from growing unnoticed.
  "@kubeimg/policy/tags/argocd": { target: 46 * 1024, ceiling: 46 * 1024 },
  "@kubeimg/policy/tags/kargo": { target: 40 * 1024, ceiling: 40 * 1024 },
  // Raised by 1 KB each when Argo CD learnt to drop single-manifest images of an
  // unwanted platform and the updaters their own Masterminds release, once
  // more when the Argo CD and Kargo readers learnt to suggest the field meant
  // for an unknown one, and once more when platform specifiers were parsed
  // at their slash positions with the case found in the same pass (both
  // dialects read platforms; 44.1 and 39.0 KB then). Argo CD and the
  // dialects entry once more when semver constraints came to be scanned by
  // hand (no regexp compile on the first parse; the regexp engine stays for
  // tag filters): 45.1 and 52.6 KB then.
  "@kubeimg/policy/tags/dialects": { target: 53 * 1024, ceiling: 53 * 1024 },
  "@kubeimg/policy/routing": { target: 70 * 1024, ceiling: 70 * 1024 },
};
/**
 * Parses one routing resource and one Flux ImagePolicy, valid and invalid,
 * through `report`: in a browser bundle zod must be bundled in (it cannot
 * be loaded at run time), and its English messages with it.
 */
const browserParseProbe = `
import { parseRoutingResource } from "@kubeimg/policy/routing";
import { parseImagePolicy } from "@kubeimg/policy/tags";
const cism = parseRoutingResource({
  apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
  metadata: { name: "all" },
  spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
});
report(cism.kind + " " + cism.metadata.name);
const policy = parseImagePolicy({
  apiVersion: "image.toolkit.fluxcd.io/v1", kind: "ImagePolicy",
  metadata: { name: "podinfo", namespace: "flux-system" },
  spec: { imageRepositoryRef: { name: "podinfo" }, policy: { semver: { range: "5.1.x" } } },
});
report(policy.kind + " " + policy.spec.policy.semver.range);
const refused = [
  () => parseRoutingResource({ apiVersion: cism.apiVersion, kind: cism.kind, metadata: { name: "all" }, spec: 7 }),
  () => parseImagePolicy({ apiVersion: policy.apiVersion, kind: "ImagePolicy", metadata: { name: "p" }, spec: 7 }),
];
for (const parse of refused) {
  try { parse(); report("accepted"); } catch (error) { report(error.code + " " + error.message); }
}
`;
/** What {@link browserParseProbe} reports: the two objects, then each refusal in English. */
const browserParseExpected = [
  /^ClusterImageSetMirror all$/,
  /^ImagePolicy 5\.1\.x$/,
  /^INVALID_RESOURCE .*expected object, received number/,
  /^INVALID_IMAGE_POLICY .*expected object, received number/,
];

/** The packed CLI (everything bundled) must stay small enough to install quickly. */
const cliTarballLimit = 1024 * 1024;
/** Node-only builds that must import `node:fs`, not `fs` (Deno needs the prefix). */
const nodePrefixedBuilds = [
  "@kubeimg/policy/dist/pull-credentials/fs/index.js",
  "@kubeimg/policy/dist/pull-credentials/fs/index.cjs",
];

interface Manifest {
  name: string;
  exports: Record<string, unknown>;
}

function run(command: string, args: string[], cwd: string, label: string, failures: string[]) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 300_000 });
  if (result.status !== 0) {
    failures.push(
      `${label}: exit ${result.status}${result.error ? ` (${result.error.message})` : ""}\n${result.stdout}${result.stderr}`.trim(),
    );
  }
}

/** Runs the consumer check over `tarballs`; returns one message per failure. */
export async function checkConsumer(tarballs: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "kubeimg-consumer-"));
  try {
    for (const tarball of tarballs) {
      const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
      if (!listing.includes("package/LICENSE")) failures.push(`${tarball}: no LICENSE`);
      if (/kubeimg-cli-/.test(tarball)) {
        const size = readFileSync(tarball).length;
        console.log(`consumer: CLI tarball ${(size / 1024).toFixed(0)} KB packed`);
        if (size > cliTarballLimit) {
          failures.push(`${tarball}: ${size} bytes, more than ${cliTarballLimit}`);
        }
      }
    }

    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "kubeimg-consumer-check", version: "0.0.0", private: true }, null, 2)}\n`,
    );
    execFileSync(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
        "--loglevel=error",
        ...tarballs,
      ],
      { cwd: dir, stdio: "inherit", timeout: 600_000 },
    );

    const entries: string[] = [];
    for (const tarball of tarballs) {
      const name = JSON.parse(
        execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
      ) as Manifest;
      for (const [sub, target] of Object.entries(name.exports)) {
        if (sub === "./package.json") continue;
        if (sub.endsWith(".json")) {
          // A data entry (the CLI's JSON Schema): shipped, and JSON, not code to import.
          const file = typeof target === "string" ? target : undefined;
          try {
            JSON.parse(
              execFileSync("tar", ["-xzOf", tarball, `package/${(file ?? sub).slice(2)}`], {
                encoding: "utf8",
              }),
            );
          } catch (error) {
            failures.push(`${name.name}${sub.slice(1)}: not shipped as JSON (${String(error)})`);
          }
          continue;
        }
        entries.push(name.name + sub.slice(1));
      }
    }

    // Import and require every entry, calling one function of each.
    for (const file of ["calls.cjs", "run.mjs", "run.cjs"]) {
      copyFileSync(join(repoRoot, "scripts", "consumer", file), join(dir, file));
    }
    run(process.execPath, ["run.mjs", ...entries], dir, "ESM import", failures);
    run(process.execPath, ["run.cjs", ...entries], dir, "CommonJS require", failures);

    // Type-check a consumer of every entry under each module resolution.
    const source = entries.map((e, i) => `import * as entry${i} from "${e}";`).join("\n");
    const use = `\nexport const all = [${entries.map((_, i) => `entry${i}`).join(", ")}];\n`;
    const typed = `\nexport const named: boolean = entry${entries.indexOf("@kubeimg/core/reference")}.safeParseNormalizedNamed("nginx").success;\n`;
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "consumer.ts"), source + use + typed);
    const profiles = {
      node16: { module: "node16", moduleResolution: "node16" },
      bundler: { module: "esnext", moduleResolution: "bundler" },
      node10: { module: "commonjs", moduleResolution: "node10" },
    };
    const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    for (const [profile, options] of Object.entries(profiles)) {
      const config = join(dir, `tsconfig.${profile}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            ...options,
            target: "es2022",
            lib: ["es2022", "dom"],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            esModuleInterop: true,
            types: [],
          },
          files: ["src/consumer.ts"],
        }),
      );
      run(process.execPath, [tsc, "-p", config], dir, `tsc (${profile})`, failures);
    }

    // The READMEs' and doc comments' examples compile as pasted.
    failures.push(...(await checkExamples(dir, tsc)));

    // Browser bundles of the pure subpaths, within their budgets.
    for (const [entry, budget] of Object.entries(browserBudgets)) {
      const result = await build({
        stdin: { contents: `export * from "${entry}";`, resolveDir: dir, loader: "js" },
        bundle: true,
        platform: "browser",
        format: "esm",
        minify: true,
        write: false,
        logLevel: "error",
      });
      const code = result.outputFiles[0]?.contents ?? new Uint8Array();
      const gzip = gzipSync(code).length;
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const goal = gzip <= budget.target ? "within its goal" : `goal ${kb(budget.target)} not met`;
      console.log(`consumer: ${entry} ${kb(code.length)} min, ${kb(gzip)} gzip (${goal})`);
      if (gzip > budget.ceiling) {
        failures.push(`${entry}: ${kb(gzip)} gzip, over its budget of ${kb(budget.ceiling)}`);
      }
    }

    // A browser bundle of routing and tags parses, with zod bundled in: run
    // in a fresh context (no `require`, no `process`, no `import.meta`).
    try {
      const probe = await build({
        stdin: { contents: browserParseProbe, resolveDir: dir, loader: "js" },
        bundle: true,
        platform: "browser",
        format: "iife",
        write: false,
        logLevel: "error",
      });
      const reported: string[] = [];
      runInNewContext(probe.outputFiles[0]?.text ?? "", {
        report: (line: string) => reported.push(line),
      });
      const wrong =
        reported.length !== browserParseExpected.length ||
        browserParseExpected.some((pattern, i) => !pattern.test(reported[i] ?? ""));
      if (wrong)
        failures.push(`browser parse of routing and tags: got ${JSON.stringify(reported)}`);
      else
        console.log(`consumer: browser bundle of routing and tags parses (${reported.join("; ")})`);
    } catch (error) {
      failures.push(`browser parse of routing and tags: ${String(error)}`);
    }

    // Built-in imports keep their `node:` prefix in the Node-only builds.
    for (const file of nodePrefixedBuilds) {
      const text = readFileSync(join(dir, "node_modules", file), "utf8");
      if (/(?:from |require\()["'](?:fs|path|crypto|fs\/promises)["']/.test(text)) {
        failures.push(`${file}: imports a Node built-in without the node: prefix`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failures;
}
