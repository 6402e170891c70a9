import { describe, expect, it } from "vitest";
import type { Condition } from "./image-policy-schema.js";
import {
  composeReadyMessage,
  nextConditions,
  nextImageRefs,
  planDigestReflection,
} from "./status.js";

const digestA = `sha256:${"a".repeat(64)}`;
const digestB = `sha256:${"b".repeat(64)}`;

describe("planDigestReflection", () => {
  it.each([
    { policy: "Never", prev: undefined, tag: "1.0.0", want: { fetch: false, digest: undefined } },
    {
      policy: "Never",
      prev: { name: "app", tag: "1.0.0", digest: digestA },
      tag: "1.0.0",
      want: { fetch: false, digest: undefined }, // Never clears the digest
    },
    {
      policy: "Always",
      prev: { name: "app", tag: "1.0.0", digest: digestA },
      tag: "1.0.0",
      want: { fetch: true, digest: undefined },
    },
    {
      policy: "IfNotPresent",
      prev: { name: "app", tag: "1.0.0", digest: digestA },
      tag: "1.0.0",
      want: { fetch: false, digest: digestA }, // same tag, digest kept
    },
    {
      policy: "IfNotPresent",
      prev: { name: "app", tag: "1.0.0", digest: digestA },
      tag: "1.1.0",
      want: { fetch: true, digest: undefined }, // the tag changed
    },
    {
      policy: "IfNotPresent",
      prev: { name: "app", tag: "1.0.0" },
      tag: "1.0.0",
      want: { fetch: true, digest: undefined }, // no digest stored yet
    },
    {
      policy: "IfNotPresent",
      prev: { name: "other", tag: "1.0.0", digest: digestA },
      tag: "1.0.0",
      want: { fetch: true, digest: undefined }, // the image changed
    },
  ] as const)("$policy from $prev to $tag", ({ policy, prev, tag, want }) => {
    expect(planDigestReflection(policy, prev, "app", tag)).toEqual(want);
  });
});

describe("nextImageRefs", () => {
  it("moves the previous ref when the latest ref changes", () => {
    const prev = { latestRef: { name: "app", tag: "1.0.0" } };
    expect(nextImageRefs(prev, { name: "app", tag: "1.1.0" })).toEqual({
      latestRef: { name: "app", tag: "1.1.0" },
      observedPreviousRef: { name: "app", tag: "1.0.0" },
    });
  });

  it("counts a digest change as a change (Always re-resolving a moved tag)", () => {
    const prev = { latestRef: { name: "app", tag: "1.0.0", digest: digestA } };
    expect(
      nextImageRefs(prev, { name: "app", tag: "1.0.0", digest: digestB }).observedPreviousRef,
    ).toEqual({ name: "app", tag: "1.0.0", digest: digestA });
  });

  it("keeps both refs when nothing changed, and starts with no previous ref", () => {
    const prev = {
      latestRef: { name: "app", tag: "1.1.0" },
      observedPreviousRef: { name: "app", tag: "1.0.0" },
    };
    expect(nextImageRefs(prev, { name: "app", tag: "1.1.0" })).toEqual(prev);
    expect(nextImageRefs({}, { name: "app", tag: "1.0.0" }).observedPreviousRef).toBeUndefined();
  });
});

describe("composeReadyMessage (Flux's table)", () => {
  it.each([
    {
      latest: { name: "foo/bar", tag: "1.0.0" },
      prev: undefined,
      want: "Latest image tag for foo/bar resolved to 1.0.0",
    },
    {
      latest: { name: "foo/bar", tag: "1.1.0" },
      prev: { name: "foo/bar", tag: "1.0.0" },
      want: "Latest image tag for foo/bar resolved to 1.1.0 (previously foo/bar:1.0.0)",
    },
    {
      latest: { name: "foo/bar", tag: "1.0.0" },
      prev: { name: "foo/bar", tag: "1.0.0" },
      want: "Latest image tag for foo/bar resolved to 1.0.0",
    },
    {
      latest: { name: "foo/bar", tag: "1.0.0", digest: "sha256:1234567890abcdef" },
      prev: { name: "baz/qux", tag: "1.0.0" },
      want: "Latest image tag for foo/bar resolved to 1.0.0 with digest sha256:1234567890abcdef (previously baz/qux:1.0.0)",
    },
    {
      latest: { name: "foo/bar", tag: "1.0.0", digest: "sha256:1234567890abcdef" },
      prev: { name: "foo/bar", tag: "1.0.0", digest: "sha256:abcdef1234567890" },
      want: "Latest image tag for foo/bar resolved to 1.0.0 with digest sha256:1234567890abcdef (previously foo/bar:1.0.0@sha256:abcdef1234567890)",
    },
  ])("$want", ({ latest, prev, want }) => {
    expect(composeReadyMessage(latest, prev)).toBe(want);
  });
});

describe("nextConditions", () => {
  const ready = (status: "True" | "False", reason: string, message: string) => ({
    type: "Ready",
    status,
    reason,
    message,
  });
  const retrying: Condition = {
    type: "Reconciling",
    status: "True",
    reason: "ProgressingWithRetry",
    message: "reconciliation in progress",
  };

  it("success: Ready=True only", () => {
    expect(nextConditions([], { kind: "success", message: "ok" })).toEqual([
      ready("True", "Succeeded", "ok"),
    ]);
    expect(nextConditions([retrying], { kind: "success", message: "ok" })).toEqual([
      ready("True", "Succeeded", "ok"),
    ]);
  });

  it("stalled: Stalled and Ready=False with the same reason, no Reconciling", () => {
    expect(
      nextConditions(undefined, { kind: "stalled", reason: "InvalidPolicy", message: "bad" }),
    ).toEqual([
      ready("False", "InvalidPolicy", "bad"),
      { type: "Stalled", status: "True", reason: "InvalidPolicy", message: "bad" },
    ]);
  });

  it("not ready: Ready=False and Reconciling with retry", () => {
    expect(
      nextConditions([ready("True", "Succeeded", "ok")], {
        kind: "not-ready",
        reason: "Failure",
        message: "unable to determine latest version from provided list",
      }),
    ).toEqual([
      ready("False", "Failure", "unable to determine latest version from provided list"),
      retrying,
    ]);
  });

  it("error: Ready=False Failed, but an earlier Ready=False is kept", () => {
    expect(
      nextConditions([ready("True", "Succeeded", "ok")], { kind: "error", message: "boom" }),
    ).toEqual([ready("False", "Failed", "boom"), retrying]);
    expect(
      nextConditions([ready("False", "Failure", "before")], { kind: "error", message: "boom" }),
    ).toEqual([ready("False", "Failure", "before"), retrying]);
  });
});
