/**
 * Where `docker-parse-image` 3.0.1 (a dev dependency, used only here and in
 * the benchmark) differs from us. Rows come from the measured peer table in
 * the project notes; our side is distribution/reference's answer, which the
 * conformance vectors pin.
 */

import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import dockerParseImage from "docker-parse-image";
import { describe, expect, it } from "vitest";

const hex64 = "0123456789abcdef".repeat(4);

describe("docker-parse-image differs from distribution/reference", () => {
  it.each([
    // It splits without validating, so it accepts what Go refuses.
    { input: "Foo", ours: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: "ghcr.io/OWNER/repo", ours: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: "foo:-bad", ours: "INVALID_REFERENCE_FORMAT" },
    { input: `foo:${"t".repeat(129)}`, ours: "INVALID_REFERENCE_FORMAT" },
    { input: "foo@sha256:short", ours: "INVALID_REFERENCE_FORMAT" },
    { input: `foo@sha256:${hex64.toUpperCase()}`, ours: "DIGEST_INVALID_FORMAT" },
    { input: "foo@md5:d41d8cd98f00b204e9800998ecf8427e", ours: "DIGEST_UNSUPPORTED" },
    { input: "foo___bar", ours: "INVALID_REFERENCE_FORMAT" },
    { input: "::1/foo", ours: "INVALID_REFERENCE_FORMAT" },
    { input: "registry:port/app", ours: "INVALID_REFERENCE_FORMAT" },
    { input: "a".repeat(256), ours: "NAME_TOO_LONG" },
    { input: hex64, ours: "NAME_IS_HEX_IDENTIFIER" },
    { input: " nginx", ours: "INVALID_REFERENCE_FORMAT" },
  ])("accepts $input, which we refuse with $ours", ({ input, ours }) => {
    expect(dockerParseImage(input)).not.toBeNull();
    const r = safeParseNormalizedNamed(input);
    expect(r.success ? undefined : r.error.code).toBe(ours);
  });

  it.each([
    // It caps paths at three components.
    { input: "gcr.io/a/b/c/d:1", ours: "gcr.io/a/b/c/d:1" },
    {
      input: "public.ecr.aws/eks-distro/kubernetes/pause:v1.29.0-eks-1-29-latest",
      ours: "public.ecr.aws/eks-distro/kubernetes/pause:v1.29.0-eks-1-29-latest",
    },
  ])("refuses $input, which is valid", ({ input, ours }) => {
    expect(dockerParseImage(input)).toBeNull();
    const r = safeParseNormalizedNamed(input);
    expect(r.success && r.data.string).toBe(ours);
  });

  it("reads localhost/foo as a Hub namespace; localhost is always a domain", () => {
    expect(dockerParseImage("localhost/foo")).toMatchObject({
      registry: null,
      namespace: "localhost",
    });
    const r = safeParseNormalizedNamed("localhost/foo");
    expect(r.success && [r.data.domain, r.data.path]).toEqual(["localhost", "foo"]);
  });

  it("returns tag@digest as one tag; we keep them apart", () => {
    const input = `foo:tag@sha256:${hex64}`;
    expect(dockerParseImage(input)?.tag).toBe(`tag@sha256:${hex64}`);
    const r = safeParseNormalizedNamed(input);
    expect(r.success && [r.data.tag, r.data.digest]).toEqual(["tag", `sha256:${hex64}`]);
  });

  it("keeps index.docker.io and has no docker.io/library/ form; we normalize", () => {
    expect(dockerParseImage("index.docker.io/nginx")?.registry).toBe("index.docker.io");
    const r = safeParseNormalizedNamed("index.docker.io/nginx");
    expect(r.success && r.data.name).toBe("docker.io/library/nginx");
  });
});
