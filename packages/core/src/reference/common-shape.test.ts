/**
 * The one-pass reader of common shapes must give exactly what the exact
 * ladder gives, whenever it answers at all; and it must answer for the
 * references real Pod specs carry, or it is dead weight.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceLike } from "./arbitraries.test-support.js";
import { parseCommonShape } from "./common-shape.js";
import { normalizeExactly } from "./parse.js";

const hex64 = "0123456789abcdef".repeat(4);

/** Why `parseCommonShape(s)` is wrong, or undefined when it agrees with the ladder. */
function disagreement(s: string): string | undefined {
  const fast = parseCommonShape(s);
  if (fast === undefined) return undefined;
  let exact: ReturnType<typeof normalizeExactly>;
  try {
    exact = normalizeExactly(s);
  } catch (error) {
    return `common shape accepted ${JSON.stringify(s)}, the ladder throws ${String(error)}`;
  }
  for (const key of ["domain", "path", "name", "tag", "digest", "string"] as const) {
    if (fast[key] !== exact[key]) {
      return `${JSON.stringify(s)}: ${key} is ${JSON.stringify(fast[key])}, the ladder says ${JSON.stringify(exact[key])}`;
    }
  }
  if (fast.toString() !== exact.toString()) return `${JSON.stringify(s)}: toString differs`;
  return undefined;
}

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,6}[a-z0-9])?$/);
const head = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join(".")),
  fc.constantFrom("localhost", "docker.io", "index.docker.io", "docker.io.example", "localhostx"),
);
const component = fc.stringMatching(/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+){0,3}$/);
const tag = fc.stringMatching(/^\w[\w.-]{0,10}$/);
/** Common shapes, most of them valid; each piece is optional. */
const common = fc
  .tuple(
    fc.option(fc.tuple(head, fc.option(fc.integer({ min: 0, max: 99999 }), { freq: 3 }))),
    fc.array(component, { minLength: 1, maxLength: 4 }),
    fc.option(tag),
    fc.option(
      fc.constantFrom(
        `sha256:${hex64}`,
        `sha256:${hex64.toUpperCase()}`,
        `sha512:${hex64}${hex64}`,
      ),
    ),
  )
  .map(
    ([h, path, t, d]) =>
      (h === null ? "" : `${h[0]}${h[1] === null ? "" : `:${h[1]}`}/`) +
      path.join("/") +
      (t === null ? "" : `:${t}`) +
      (d === null ? "" : `@${d}`),
  );
/** A common shape with one character replaced, inserted or removed. */
const nearMiss = fc
  .tuple(common, fc.nat(), fc.constantFrom(..."/:@.-_A[]Z0 é".split(""), ""), fc.boolean())
  .map(([s, at, c, insert]) => {
    const i = at % (s.length + 1);
    return s.slice(0, i) + c + s.slice(insert ? i : i + 1);
  });

describe("parseCommonShape", () => {
  it("agrees with the ladder on every conformance input", () => {
    const file = new URL("../../../../conformance/reference/vectors.jsonl", import.meta.url);
    const problems: string[] = [];
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const problem = disagreement((JSON.parse(line) as { input: string }).input);
      if (problem !== undefined) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  it("agrees with the ladder on 100k common shapes, near misses and reference-like noise", () => {
    fc.assert(
      fc.property(fc.oneof(common, nearMiss, referenceLike), (s) => {
        const problem = disagreement(s);
        if (problem !== undefined) throw new Error(problem);
      }),
      { numRuns: 100_000 },
    );
  });

  it("answers for the shapes Pod specs carry", () => {
    const everyday = [
      "nginx",
      "nginx:1.25.3-alpine",
      "bitnami/redis:7.2",
      "docker.io/nginx",
      "docker.io/library/nginx:latest",
      "index.docker.io/grafana/loki:2.9.0",
      "registry.k8s.io/kube-apiserver:v1.30.0",
      "123456789012.dkr.ecr.us-east-1.amazonaws.com/team/app:sha-4f2c1a9",
      "localhost:5000/app",
      "localhost/app:dev",
      "10.0.0.12:30500/ns/app",
      `ghcr.io/org/app@sha256:${hex64}`,
      `quay.io/org/app:v2_0@sha256:${hex64}`,
      "registry.io/my_org/my__app",
      "xn--bcher-kva.example/app",
    ];
    expect(everyday.filter((s) => parseCommonShape(s) === undefined)).toEqual([]);
  });

  it("leaves the rare shapes and every error to the ladder", () => {
    const rare = [
      "",
      "Nginx",
      "Registry.io/app",
      "[::1]:5000/app",
      `app@sha512:${hex64}${hex64}`,
      `app@sha256:${hex64.toUpperCase()}`,
      hex64,
      "a".repeat(256),
      "ex_ample.com/app",
      "app:",
      "app:-tag",
      "app@",
      "app/",
      "host.io:/app",
    ];
    expect(rare.filter((s) => parseCommonShape(s) !== undefined)).toEqual([]);
  });
});
