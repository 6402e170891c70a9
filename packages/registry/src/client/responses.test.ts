import { describe, expect, it } from "vitest";
import { mergeScopes, parseRateLimit, parseTagsPage, parseTokenResponse } from "./responses.js";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const now = Date.parse("2026-11-21T06:00:00Z");

describe("parseTokenResponse", () => {
  it.each([
    { body: { token: "a", expires_in: 300 }, want: { token: "a", expiresAt: now + 300_000 } },
    { body: { access_token: "b" }, want: { token: "b", expiresAt: now + 60_000 } }, // default 60 s
    {
      body: { token: "", access_token: "c", expires_in: 5 },
      want: { token: "c", expiresAt: now + 60_000 },
    }, // floor
    {
      body: { token: "d", expires_in: 120, issued_at: "2026-11-21T05:59:00Z" },
      want: { token: "d", expiresAt: now - 60_000 + 120_000 },
    },
    { body: { token: 1 }, want: undefined },
    { body: [], want: undefined },
  ])("$body", ({ body, want }) => {
    expect(parseTokenResponse(bytes(body), now)).toEqual(want);
  });
});

describe("parseRateLimit", () => {
  it("reads Docker Hub's headers", () => {
    const headers = new Headers({
      "ratelimit-limit": "100;w=21600",
      "ratelimit-remaining": "97;w=21600",
    });
    expect(parseRateLimit(headers)).toEqual({ limit: 100, remaining: 97, windowSeconds: 21600 });
    expect(parseRateLimit(new Headers())).toBeUndefined();
  });
});

describe("mergeScopes", () => {
  it("puts the challenge's scopes first, without repeats", () => {
    expect(mergeScopes("repository:a:pull,push registry:catalog:*", ["repository:a:pull"])).toEqual(
      ["repository:a:pull,push", "registry:catalog:*", "repository:a:pull"],
    );
  });
});

describe("parseTagsPage", () => {
  it("reads null lists and null entries, rejects other shapes", () => {
    expect(parseTagsPage(bytes({ name: "a", tags: null }), "https://r/v2", "r/a")).toEqual([]);
    expect(parseTagsPage(bytes({ tags: ["x", null] }), "https://r/v2", "r/a")).toEqual(["x"]);
    expect(() => parseTagsPage(bytes({ tags: [1] }), "https://r/v2", "r/a")).toThrow(
      expect.objectContaining({ code: "INVALID_RESPONSE" }),
    );
    expect(() => parseTagsPage(new TextEncoder().encode("<html>"), "https://r/v2", "r/a")).toThrow(
      expect.objectContaining({ code: "INVALID_RESPONSE" }),
    );
  });
});
