import { describe, expect, it } from "vitest";
import { memoryIo } from "../io/memory-io.test-support.js";
import { runCli } from "../run.js";
import { MAX_EXPANDED_NODES, yamlDocuments } from "./yaml-documents.js";

const bomb = (aliases: number, items: number) =>
  `a: &big [${Array.from({ length: items }, (_, i) => i).join(", ")}]\nb: [${Array(aliases).fill("*big").join(", ")}]\n`;

describe("yamlDocuments bounds what aliases expand to", () => {
  it("refuses 99 aliases to a 20,000-item list with YAML_TOO_LARGE, naming the file", () => {
    expect(() => yamlDocuments({ name: "bomb.yaml", text: bomb(99, 20_000) })).toThrow(
      expect.objectContaining({
        name: "CliError",
        code: "YAML_TOO_LARGE",
        message: `bomb.yaml: document 0: more than ${MAX_EXPANDED_NODES} nodes once its aliases are expanded`,
      }),
    );
  });

  it("reads ordinary anchors and aliases", () => {
    expect(yamlDocuments({ name: "ok.yaml", text: "a: &x [1, 2]\nb: *x\n---\nc: 3\n" })).toEqual([
      { a: [1, 2], b: [1, 2] },
      { c: 3 },
    ]);
  });

  it("secret files: an error names file and position only", () => {
    let caught: unknown;
    try {
      yamlDocuments({ name: "s.yaml", text: "k: [S3CRET\n" }, { secret: true });
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: "INVALID_YAML" });
    expect((caught as Error).message).toMatch(/^s\.yaml:\d+:\d+: invalid YAML \([A-Z_]+\)$/);
  });

  it("kubeimg tags --tags-file with an alias bomb: one line, exit 2", async () => {
    const { tempFiles } = await import("./temp-files.test-support.js");
    const files = tempFiles({
      "p.yaml": `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: app }
spec:
  imageRepositoryRef: { name: app }
  policy: { alphabetical: {} }
`,
      "tags.yaml": `x: &t [${Array(20_000).fill('"1"').join(",")}]\ntags: [${Array(99).fill("*t").join(",")}]\n`,
    });
    try {
      const m = memoryIo({ tty: false, cwd: files.dir });
      expect(await runCli(["tags", "-f", "p.yaml", "--tags-file", "tags.yaml"], m.io)).toBe(2);
      expect(m.err()).toMatch(
        /^kubeimg tags: tags\.yaml: document 0: more than \d+ nodes .* \[YAML_TOO_LARGE\]\n$/,
      );
    } finally {
      files.remove();
    }
  });
});

describe("--timeout bounds (a Node.js timer holds 1ms to 2^31-1 ms)", () => {
  it.each(["597h", "1200h", "1ns"])(
    "--timeout %s is one line, exit 2, before any request",
    async (value) => {
      let requests = 0;
      const m = memoryIo({
        tty: false,
        fetch: async () => {
          requests++;
          return new Response("{}");
        },
      });
      const code = await runCli(
        ["route", "-f", "-", "-n", "default", "--image", "nginx", "--check", "--timeout", value],
        {
          ...m.io,
          readStdin: async () =>
            "apiVersion: kuik.enix.io/v1alpha1\nkind: ClusterImageSetMirror\nmetadata: { name: m }\nspec:\n  filter: { include: [{ image: '.*' }] }\n  mirrors: [{ registry: h.example.com, path: /x }]\n",
        },
      );
      expect(code).toBe(2);
      expect(m.err()).toBe(
        `kubeimg route: --timeout must be between 1ms and 596h31m23.647s (the longest timer Node.js keeps), not "${value}"\n`,
      );
      expect(requests).toBe(0);
    },
  );
});
