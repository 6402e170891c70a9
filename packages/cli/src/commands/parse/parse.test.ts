import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { runKubeimg, stderrLines } from "../../run-program.test-support.js";

const hex = "0123456789abcdef".repeat(4);

describe("kubeimg parse (built program)", () => {
  it.each([
    {
      input: "nginx",
      normalized: "docker.io/library/nginx",
      familiar: "nginx",
      tag: null,
      digest: null,
      defaultPullPolicy: "Always",
    },
    {
      input: "bitnami/redis:7.2",
      normalized: "docker.io/bitnami/redis:7.2",
      familiar: "bitnami/redis:7.2",
      tag: "7.2",
      digest: null,
      defaultPullPolicy: "IfNotPresent",
    },
    {
      input: "index.docker.io/library/nginx:latest",
      normalized: "docker.io/library/nginx:latest",
      familiar: "nginx:latest",
      tag: "latest",
      digest: null,
      defaultPullPolicy: "Always",
    },
    {
      // A digest-only image is IfNotPresent: the defaulting looks at the tag only.
      input: `registry.k8s.io/pause@sha256:${hex}`,
      normalized: `registry.k8s.io/pause@sha256:${hex}`,
      familiar: `registry.k8s.io/pause@sha256:${hex}`,
      tag: null,
      digest: `sha256:${hex}`,
      defaultPullPolicy: "IfNotPresent",
    },
    {
      input: "localhost:5000/app:v1",
      normalized: "localhost:5000/app:v1",
      familiar: "localhost:5000/app:v1",
      tag: "v1",
      digest: null,
      defaultPullPolicy: "IfNotPresent",
    },
  ])("$input", async ({ input, ...want }) => {
    const run = await runKubeimg(["parse", "-o", "json", input]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const [row] = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(row).toMatchObject({ input, valid: true, ...want });
  });

  it.each([
    { input: "Foo", code: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: "nginx:", code: "INVALID_REFERENCE_FORMAT" },
    { input: "a:b:c", code: "INVALID_REFERENCE_FORMAT" },
    { input: `nginx@sha256:${hex.slice(1)}`, code: "DIGEST_INVALID_LENGTH" },
    { input: "", code: "INVALID_REFERENCE_FORMAT" },
  ])("refuses $input with $code, exit 2, one line", async ({ input, code }) => {
    const run = await runKubeimg(["parse", "nginx", input]);
    expect(run.code).toBe(2);
    const lines = stderrLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^kubeimg parse: ".*": .+ \\[${code}\\]$`));
    // Not a terminal: JSON by default, the bad reference reported with its code.
    const rows = JSON.parse(run.stdout) as { valid: boolean; error?: { code: string } }[];
    expect(rows.map((r) => r.valid)).toEqual([true, false]);
    expect(rows[1]?.error?.code).toBe(code);
  });

  it("prints one block per reference with -o table, no colour when not a terminal", async () => {
    const run = await runKubeimg([
      "parse",
      "-o",
      "table",
      "nginx",
      "quay.io/prometheus/node-exporter:v1.8.2",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("\u001b[");
    expect(run.stdout).toBe(
      [
        "input:                nginx",
        "normalized:           docker.io/library/nginx",
        "familiar:             nginx",
        "tag:                  -",
        "digest:               -",
        "default pull policy:  Always",
        "",
        "input:                quay.io/prometheus/node-exporter:v1.8.2",
        "normalized:           quay.io/prometheus/node-exporter:v1.8.2",
        "familiar:             quay.io/prometheus/node-exporter:v1.8.2",
        "tag:                  v1.8.2",
        "digest:               -",
        "default pull policy:  IfNotPresent",
        "",
      ].join("\n"),
    );
  });

  it("prints YAML with -o yaml", async () => {
    const run = await runKubeimg(["parse", "--output=yaml", "nginx:1.27"]);
    expect(run.code).toBe(0);
    expect(parseYaml(run.stdout)).toEqual([
      expect.objectContaining({ normalized: "docker.io/library/nginx:1.27", tag: "1.27" }),
    ]);
  });

  it.each([
    { args: ["parse"], message: /give at least one image reference/ },
    { args: ["parse", "--bogus", "nginx"], message: /Unknown option '--bogus'/ },
    { args: ["parse", "-o", "xml", "nginx"], message: /--output must be one of table, json, yaml/ },
    { args: ["parse", "-o"], message: /Option '-o, --output <value>' argument missing/ },
  ])("bad usage $args: exit 2, one line", async ({ args, message }) => {
    const run = await runKubeimg(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const lines = stderrLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});
