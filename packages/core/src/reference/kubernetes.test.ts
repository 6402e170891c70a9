import { describe, expect, it } from "vitest";
import { defaultPullPolicy, parseImageName, repositoryName } from "./kubernetes.js";
import { parseNormalizedNamed } from "./parse.js";

const hex64 = "0123456789abcdef".repeat(4);

describe("defaultPullPolicy", () => {
  // Kubernetes "Images" docs and SetDefaults_Container: only the tag counts.
  it.each([
    { image: "nginx", want: "Always" }, // no tag, no digest: implicitly :latest
    { image: "nginx:latest", want: "Always" },
    { image: "nginx:1.25", want: "IfNotPresent" },
    { image: `nginx@sha256:${hex64}`, want: "IfNotPresent" }, // digest only
    { image: `nginx:latest@sha256:${hex64}`, want: "Always" }, // the defaulting looks at the tag
    { image: `nginx:1.25@sha256:${hex64}`, want: "IfNotPresent" },
    { image: "registry.k8s.io/pause:3.9", want: "IfNotPresent" },
    { image: "localhost:5000/app", want: "Always" },
  ])("$image → $want", ({ image, want }) => {
    expect(defaultPullPolicy(image)).toBe(want);
    // The same answer from the image already read.
    expect(defaultPullPolicy(parseNormalizedNamed(image))).toBe(want);
  });

  it("throws on an invalid image instead of guessing", () => {
    expect(() => defaultPullPolicy("Not/Valid")).toThrow(
      expect.objectContaining({ code: "REMOTE_NAME_CONTAINS_UPPERCASE" }),
    );
  });
});

describe("repositoryName", () => {
  it.each([
    { image: "nginx:1.25", want: "docker.io/library/nginx" },
    { image: `registry.k8s.io/pause@sha256:${hex64}`, want: "registry.k8s.io/pause" },
    { image: "index.docker.io/bitnami/redis:7", want: "docker.io/bitnami/redis" },
    { image: "localhost:5000/team/app:v1", want: "localhost:5000/team/app" },
  ])("$image → $want", ({ image, want }) => {
    expect(repositoryName(image)).toBe(want);
  });
});

describe("parseImageName", () => {
  it.each([
    {
      image: "nginx",
      want: { repository: "docker.io/library/nginx", tag: "latest", digest: undefined },
    },
    {
      image: `nginx@sha256:${hex64}`,
      want: { repository: "docker.io/library/nginx", tag: undefined, digest: `sha256:${hex64}` },
    },
  ])("$image", ({ image, want }) => {
    expect(parseImageName(image)).toEqual(want);
  });
});
