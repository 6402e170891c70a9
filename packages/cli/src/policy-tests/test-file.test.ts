import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { schemaProblems } from "./json-schema.test-support.js";
import { policyTestJsonSchema } from "./spec.js";
import { readTestFile } from "./test-file.js";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const published = JSON.parse(
  readFileSync(join(repo, "packages/cli/policy-test.schema.json"), "utf8"),
) as Record<string, unknown>;

const HEAD = "apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\n";
const SELECT = `${HEAD}cases:
  - name: one
    select:
      policy: ImagePolicy/flux-system/podinfo
      tags: ["1.0.0"]
    expect:
      tag: "1.0.0"
`;

/** The format's example in packages/cli/README.md. */
function readmeExample(): string {
  const readme = readFileSync(join(repo, "packages/cli/README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Policy tests"));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("no yaml block in the README's policy tests section");
  return block;
}

/** Valid test files: the examples, and a few written here. */
function validFiles(): { name: string; text: string }[] {
  const dir = join(repo, "examples/policy-tests/tests");
  const examples = readdirSync(dir).map((f) => ({
    name: f,
    text: readFileSync(join(dir, f), "utf8"),
  }));
  return [
    ...examples,
    {
      name: "failing",
      text: readFileSync(join(repo, "examples/policy-tests-failing/kubeimg-test.yaml"), "utf8"),
    },
    { name: "select", text: SELECT },
    { name: "no expect", text: SELECT.replace(/ {4}expect:\n.*\n$/s, "") },
    { name: "empty cases", text: `${HEAD}cases: []\n` },
    { name: "the CLI README's example", text: readmeExample() },
    {
      name: "upstream releases",
      text: SELECT.replace(
        "cases:",
        'upstream:\n  containerd: "2.3"\n  containers-image: "5.36"\n  kubelet: "1.35"\n  semver: v3.4.0\ncases:',
      ),
    },
  ];
}

/** Invalid files: the code, and what the message must say. */
const INVALID: readonly { name: string; text: string; code: string; says: string[] }[] = [
  {
    name: "misspelled expect",
    text: SELECT.replace("    expect:", "    expct:"),
    code: "UNKNOWN_FIELD",
    says: ["t.yaml:8: cases[0].expct: unknown field; did you mean expect?"],
  },
  {
    name: "misspelled tags",
    text: SELECT.replace("      tags:", "      tgas:"),
    code: "UNKNOWN_FIELD",
    says: [":7: cases[0].select.tgas: unknown field; did you mean tags?"],
  },
  {
    name: "misspelled top-level field",
    text: SELECT.replace("cases:", "resorces: []\ncases:"),
    code: "UNKNOWN_FIELD",
    says: [":3: resorces: unknown field; did you mean resources?"],
  },
  {
    name: "a number for a tag",
    text: SELECT.replace('tags: ["1.0.0"]', "tags: [1.0]"),
    code: "INVALID_POLICY_TEST",
    says: [":7: cases[0].select.tags[0]: must be a string (found 1)"],
  },
  {
    name: "two kinds in one case",
    text: SELECT.replace("    expect:", "    route: { image: nginx }\n    expect:"),
    code: "INVALID_POLICY_TEST",
    says: [":4: cases[0]: has select and route; give one per case"],
  },
  {
    name: "no kind",
    text: `${HEAD}cases:\n  - name: one\n`,
    code: "INVALID_POLICY_TEST",
    says: ["cases[0]: needs one of select, route, pull, pullCheck"],
  },
  {
    name: "no name",
    text: `${HEAD}cases:\n  - select: { policy: ImagePolicy/a/b, tags: [] }\n`,
    code: "INVALID_POLICY_TEST",
    says: ["cases[0]: name is required"],
  },
  {
    name: "misspelled enum",
    text: `${HEAD}cases:\n  - name: one\n    route: { image: nginx, pullPolicy: Allways }\n`,
    code: "INVALID_POLICY_TEST",
    says: [
      'pullPolicy: must be one of Always, IfNotPresent, Never (found "Allways"); did you mean Always?',
    ],
  },
  {
    name: "wrong apiVersion",
    text: SELECT.replace("kubeimg.dev/v1alpha1", "kubeimg.dev/v1"),
    code: "INVALID_POLICY_TEST",
    says: [":1: apiVersion: must be one of kubeimg.dev/v1alpha1"],
  },
  {
    name: "a negative subscription",
    text: SELECT.replace("      tags:", "      subscription: -1\n      tags:"),
    code: "INVALID_POLICY_TEST",
    says: ["cases[0].select.subscription: must be an integer from 0 (found -1)"],
  },
  {
    name: "none: false",
    text: SELECT.replace('      tag: "1.0.0"', "      none: false"),
    code: "INVALID_POLICY_TEST",
    says: ["cases[0].expect.none: must be true (found false)"],
  },
  {
    name: "a misspelled upstream name",
    text: SELECT.replace("cases:", 'upstream:\n  containers-imag: "5.36"\ncases:'),
    code: "UNKNOWN_FIELD",
    says: [
      "t.yaml:4: upstream.containers-imag: unknown field; did you mean containers-image? (known: containerd, containers-image, kubelet, semver)",
    ],
  },
  {
    name: "an upstream no case reads",
    text: SELECT.replace("cases:", "upstream:\n  platforms: rc.4\ncases:"),
    code: "UNKNOWN_FIELD",
    says: [":4: upstream.platforms: unknown field"],
  },
  {
    name: "a release kubeimg does not reproduce",
    text: SELECT.replace("cases:", 'upstream:\n  containers-image: "5.4"\ncases:'),
    code: "INVALID_POLICY_TEST",
    says: [
      't.yaml:4: upstream.containers-image: must be one of 5.36, 5.40 (found "5.4"); did you mean 5.40?',
    ],
  },
  {
    name: "a release YAML reads as a number",
    text: SELECT.replace("cases:", "upstream:\n  containers-image: 5.40\ncases:"),
    code: "INVALID_POLICY_TEST",
    says: [":4: upstream.containers-image: must be a string (found 5.4); quote it"],
  },
  {
    name: "no cases",
    text: HEAD,
    code: "INVALID_POLICY_TEST",
    says: ["(top): cases is required"],
  },
];

describe("readTestFile", () => {
  it.each(validFiles())("reads $name", ({ name, text }) => {
    expect(() => readTestFile({ name, text })).not.toThrow();
  });

  it("gives each case its kind and line", () => {
    const file = readTestFile({ name: "t.yaml", text: SELECT });
    expect(file.cases.map((c) => [c.name, c.kind, c.line])).toEqual([["one", "select", 4]]);
  });

  it.each(INVALID)("refuses $name with the file, line, field and value", ({ text, code, says }) => {
    let caught: unknown;
    try {
      readTestFile({ name: "t.yaml", text });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ name: "CliError", code });
    for (const s of says) expect((caught as Error).message).toContain(s);
  });

  it("refuses a name used twice", () => {
    const text = `${SELECT}  - name: one\n    select: { policy: ImagePolicy/a/b, tags: [] }\n`;
    expect(() => readTestFile({ name: "t.yaml", text })).toThrow(
      /:10: cases\[1\]\.name: "one" is used twice/,
    );
  });
});

describe("the published JSON Schema", () => {
  it("is the one generated from the validator's field table", () => {
    expect(published).toEqual(policyTestJsonSchema());
  });

  it.each(validFiles())("accepts $name, as the validator does", ({ text }) => {
    expect(schemaProblems(published, parse(text))).toEqual([]);
  });

  it.each(INVALID)("refuses $name, as the validator does", ({ text }) => {
    expect(schemaProblems(published, parse(text) ?? null)).not.toEqual([]);
  });
});
