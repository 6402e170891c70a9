/**
 * Every function that reads YAML text refuses a document whose aliases
 * expand past a bound, with a typed answer, before building its value: they
 * all go through policy's one bounded reader (`@kubeimg/policy/objects`).
 *
 * The inventory test finds the readers: any source file that imports the
 * `yaml` library must be listed below with what it does with it, so a new
 * reader cannot appear without a row in the walk.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { type CliIo, runCli } from "@kubeimg/cli";
import { pullCredentials } from "@kubeimg/policy/internal";
import { readYamlDocuments } from "@kubeimg/policy/objects";
import { loadKuikConfig, loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { loadTagObjects } from "@kubeimg/policy/tags/yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFluxObjects } from "../examples/image-updater/objects.js";
import { readYaml } from "../examples/playground/src/compute/input.js";

const { decodeIntentFile, decodePulledRecordFile } = pullCredentials;

const root = join(import.meta.dirname, "..");

/** Files importing `yaml`, and why each is not a reader outside the walk. */
const yamlImporters: Record<string, string> = {
  "packages/policy/src/deferred/yaml-default.ts":
    "`#yaml` outside Node: re-exports yaml's functions for the two files below",
  "packages/policy/src/deferred/yaml-node.ts":
    "`#yaml` in Node: the same functions, loading yaml on their first call",
  "packages/policy/src/objects/yaml-documents.ts": "the bounded reader itself",
  "packages/policy/src/tags/yaml/load.ts":
    "parses to place fields by line, then the bounded reader's step (loadTagObjects row)",
  "packages/policy/src/pull-credentials/yaml-fallback.ts":
    "parses with Kubernetes' rules, then the bounded reader's step (decode*File rows)",
  "packages/cli/src/output/write.ts": "writes YAML, reads none",
  "packages/cli/src/policy-tests/test-file.ts":
    "reads through the bounded reader first, then parses only to place lines (builds no values)",
  "examples/playground/src/compute/input.ts":
    "parses only to place lines; values from the bounded reader (readYaml row)",
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry.name) && !/\.test(-support)?\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * The classic "billion laughs": nine levels of ten aliases each, 10^9 nodes
 * from a few hundred bytes.
 */
function billionLaughs(): string {
  const lines = [`a0: &a0 [${Array(10).fill('"lol"').join(",")}]`];
  for (let level = 1; level <= 9; level++) {
    lines.push(
      `a${level}: &a${level} [${Array(10)
        .fill(`*a${level - 1}`)
        .join(",")}]`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A wide bomb the YAML library's own alias count lets through (60 aliases of
 * one flat list): 1.2 million nodes from 40 KB.
 */
function wideBomb(): string {
  return `list: &l [${Array(20_000).fill("0").join(",")}]\nmore: [${Array(60).fill("*l").join(",")}]\n`;
}

const bombs = [
  { name: "billion laughs", text: billionLaughs() },
  { name: "wide aliases", text: wideBomb() },
];

/** Expects `run` to throw a typed error (`code`) whose message names the expansion bound. */
function expectTyped(run: () => unknown, code: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(Error);
  expect((thrown as { code?: unknown }).code).toBe(code);
  expect((thrown as Error).message).toMatch(/nodes once its aliases are expanded/);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-yaml-readers-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; err: string }> {
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: { write: () => {}, isTTY: false },
    stderr: { write: (t) => stderr.push(t), isTTY: false },
    env: {},
    cwd: dir,
    fetch: () => Promise.reject(new Error("no network in this test")),
  };
  const code = await runCli(args, io);
  return { code, err: stderr.join("") };
}

const UPDATER = `apiVersion: argocd-image-updater.argoproj.io/v1alpha1
kind: ImageUpdater
metadata: { name: app, namespace: argocd }
spec:
  applicationRefs:
    - namePattern: "app-*"
      images: [{ alias: web, imageName: ghcr.io/acme/app }]
`;

describe("readers of YAML text", () => {
  it("are all known: every source file importing `yaml` is listed", () => {
    const found = ["packages", "examples"]
      .flatMap((top) => sourceFiles(join(root, top)))
      // `#yaml` is policy's deferred import of yaml.
      .filter((file) => /from "#?yaml"/.test(readFileSync(file, "utf8")))
      .map((file) => relative(root, file).split("\\").join("/"))
      .sort();
    expect(found).toEqual(Object.keys(yamlImporters).sort());
  });

  describe.each(bombs)("refuse $name with a typed error", ({ text }) => {
    it("readYamlDocuments (@kubeimg/policy/objects)", () => {
      const read = readYamlDocuments(text);
      expect(read.ok).toBe(false);
      expect(read.ok ? undefined : read.problem.kind).toBe("too-large");
    });
    it("loadRoutingResources, loadKuikConfig (@kubeimg/policy/routing/yaml)", () => {
      expectTyped(() => loadRoutingResources(text), "YAML_TOO_LARGE");
      expectTyped(() => loadKuikConfig(text), "YAML_TOO_LARGE");
    });
    it("loadTagObjects (@kubeimg/policy/tags/yaml)", () => {
      expectTyped(() => loadTagObjects(text), "YAML_TOO_LARGE");
    });
    it("decodePulledRecordFile, decodeIntentFile (@kubeimg/policy/pull-credentials)", () => {
      // Not `{` first: the kubelet's decoder reads it as YAML.
      expectTyped(() => decodePulledRecordFile(text), "DECODE_ERROR");
      expectTyped(() => decodeIntentFile(text), "DECODE_ERROR");
      expectTyped(() => decodePulledRecordFile(new TextEncoder().encode(text)), "DECODE_ERROR");
    });
    it("kubeimg: -f files and --tags-file", async () => {
      writeFileSync(join(dir, "bomb.yaml"), text);
      writeFileSync(join(dir, "updater.yaml"), UPDATER);
      const route = await cli(["route", "-n", "default", "--image", "nginx", "-f", "bomb.yaml"]);
      expect(route.code).not.toBe(0);
      expect(route.err).toMatch(/bomb\.yaml: .*aliases are expanded \[YAML_TOO_LARGE\]/);
      const tags = await cli([
        "tags",
        "--dialect",
        "argocd",
        "-f",
        "updater.yaml",
        "--tags-file",
        "bomb.yaml",
      ]);
      expect(tags.code).not.toBe(0);
      expect(tags.err).toMatch(/bomb\.yaml: .*aliases are expanded \[YAML_TOO_LARGE\]/);
    });
    it("readFluxObjects (image-updater example)", () => {
      expect(() => readFluxObjects(text)).toThrow(/nodes once its aliases are expanded/);
    });
    it("readYaml (playground)", () => {
      const read = readYaml(text, "objects");
      expect("message" in read ? read.message : undefined).toMatch(
        /nodes once its aliases are expanded/,
      );
    });
  });

  it("refuse an alias inside the node its anchor names (its value would contain itself)", () => {
    const text = "kind: ImagePulledRecord\nloop: &a [*a]\n";
    const read = readYamlDocuments(text);
    expect(read.ok ? undefined : read.problem).toMatchObject({
      kind: "unresolved-alias",
      recursive: true,
    });
    expect(() => decodePulledRecordFile(text)).toThrow(
      expect.objectContaining({ code: "DECODE_ERROR" }),
    );
  });
});
