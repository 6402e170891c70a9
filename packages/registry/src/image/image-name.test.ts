import {
  isNamedReference,
  type NamedReference,
  parseNormalizedNamed,
} from "@kubeimg/core/reference";
import { describe, expect, it } from "vitest";
import { checkRegistryImage, parseRegistryImage, type RegistryImage } from "./image-name.js";

describe("parseRegistryImage", () => {
  it.each([
    {
      input: "nginx",
      want: { domain: "docker.io", path: "library/nginx", tag: undefined, digest: undefined },
    },
    {
      input: "nginx:1.25",
      want: { domain: "docker.io", path: "library/nginx", tag: "1.25", digest: undefined },
    },
    {
      input: "index.docker.io/team/app",
      want: { domain: "docker.io", path: "team/app", tag: undefined, digest: undefined },
    },
    {
      input: "localhost:5000/app:v1",
      want: { domain: "localhost:5000", path: "app", tag: "v1", digest: undefined },
    },
    {
      input: `quay.io/a/b@sha256:${"a".repeat(64)}`,
      want: { domain: "quay.io", path: "a/b", tag: undefined, digest: `sha256:${"a".repeat(64)}` },
    },
  ])("$input", ({ input, want }) => {
    const image = parseRegistryImage(input);
    expect(image).toMatchObject(want);
    // The reading itself, which the client then uses without reading it again.
    expect(isNamedReference(image)).toBe(true);
  });

  it.each(["", "Team/App", "a/b:-x", "a/b@sha256:zz", "a//b"])("rejects %j", (input) => {
    expect(() => parseRegistryImage(input)).toThrow(
      expect.objectContaining({ code: "INVALID_REFERENCE" }),
    );
  });
});

describe("RegistryImage", () => {
  it("accepts @kubeimg/core/reference NamedReference values as they are", () => {
    const named: NamedReference = parseNormalizedNamed("quay.io/team/app:1.0");
    const image: RegistryImage = named;
    expect(checkRegistryImage(image)).toBe(named);
  });

  it("checks a look-alike object as any caller's, even when it copies a reference's fields", () => {
    const named = parseNormalizedNamed("quay.io/team/app:1.0");
    const lookAlike = { domain: named.domain, path: "team/../app", tag: named.tag };
    expect(() => checkRegistryImage(lookAlike)).toThrow(
      expect.objectContaining({ code: "INVALID_REFERENCE" }),
    );
  });

  it("checks a reference of parse() without a registry host", async () => {
    const { parse } = await import("@kubeimg/core/reference");
    expect(() => checkRegistryImage(parse("app") as NamedReference)).toThrow(
      expect.objectContaining({ code: "INVALID_REFERENCE" }),
    );
  });
});
