/**
 * The page answers the first job on its own thread only when it is small
 * and holds no counted repetition, decided on what the job's YAML parses
 * to: escapes hide a pattern's braces from the pasted text.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { INLINE_MAX_CHARS, inlineable } from "./src/inline.js";
import type { Job } from "./src/jobs.js";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../demo/fixtures");
const read = (name: string) => readFileSync(join(fixtures, name), "utf8");

const tagsJob = (policy: string, objects = ""): Job => ({
  id: 1,
  view: "tags",
  input: { policy, tags: read("tags/podinfo.tags"), dialect: "flux", objects },
});

/** A Flux policy whose filter pattern is written by the test (YAML text as is). */
const withPattern = (pattern: string) => `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: p, namespace: ns }
spec:
  imageRepositoryRef: { name: p }
  filterTags:
    pattern: ${pattern}
  policy:
    alphabetical: { order: asc }
`;

describe("inlineable", () => {
  it("answers the seeds on the page thread", async () => {
    expect(await inlineable(tagsJob(read("tags/podinfo-semver.yaml")))).toBe(true);
    expect(
      await inlineable({
        id: 1,
        view: "routing",
        input: {
          crs: read("routing/team-mirror.yaml"),
          mode: "image",
          image: "docker-registry.example.com/my-app/api:1.4",
          namespace: "my-app",
          pullPolicy: "",
          pod: "",
        },
      }),
    ).toBe(true);
  });

  it.each([
    { name: "written out", pattern: '"^(a|b){1000}$"' },
    { name: "\\x7B", pattern: '"^(a|b)\\x7B1000\\x7D$"' },
    { name: "\\u007B", pattern: '"^(a|b)\\u007B1000}$"' },
    { name: "\\U0000007B", pattern: '"^(a|b)\\U0000007B1000}$"' },
    { name: "an escaped digit", pattern: '"^(a|b){\\x31000}$"' },
    { name: "an escaped line break", pattern: '"^(a|b){\\\n    1000}$"' },
  ])("sends a counted repetition $name to the worker", async ({ pattern }) => {
    const policy = withPattern(pattern);
    expect(policy.length).toBeLessThan(INLINE_MAX_CHARS);
    expect(await inlineable(tagsJob(policy))).toBe(false);
  });

  it("sees a counted repetition in a key, an objects document and a Pod", async () => {
    const plain = read("tags/podinfo-semver.yaml");
    expect(await inlineable(tagsJob(`${plain}\n"\\x7B3": x\n`))).toBe(false);
    expect(
      await inlineable(tagsJob(plain, 'kind: Warehouse\nspec: { allowTags: "v\\x7B200\\x7D" }\n')),
    ).toBe(false);
    expect(
      await inlineable({
        id: 1,
        view: "routing",
        input: {
          crs: read("routing/team-mirror.yaml"),
          mode: "pod",
          image: "",
          namespace: "",
          pullPolicy: "",
          pod: 'kind: Pod\nspec: { containers: [{ name: c, image: "a\\x7B9\\x7D" }] }\n',
        },
      }),
    ).toBe(false);
  });

  it("sends YAML that does not parse, and large inputs, to the worker", async () => {
    expect(await inlineable(tagsJob('spec: "unterminated'))).toBe(false);
    expect(await inlineable(tagsJob(`# ${"x".repeat(INLINE_MAX_CHARS)}\n`))).toBe(false);
  });
});
