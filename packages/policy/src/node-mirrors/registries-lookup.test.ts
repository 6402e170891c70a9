import { beforeEach, describe, expect, it, vi } from "vitest";
import * as references from "./containers-image-reference.js";
import { loadRegistriesConf } from "./registries-conf.js";
import { pullSources } from "./registries-lookup.js";

// Count how often the lookup reads a reference (its parsers, as imported).
vi.mock("./containers-image-reference.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./containers-image-reference.js")>();
  return {
    ...actual,
    ciParse: vi.fn(actual.ciParse),
    ciParseNamed: vi.fn(actual.ciParseNamed),
    ciParseNormalizedNamed: vi.fn(actual.ciParseNormalizedNamed),
  };
});

const parses = () =>
  vi.mocked(references.ciParse).mock.calls.length +
  vi.mocked(references.ciParseNamed).mock.calls.length +
  vi.mocked(references.ciParseNormalizedNamed).mock.calls.length;

const conf = loadRegistriesConf({
  conf: [
    "[[registry]]",
    'prefix = "example.com/team"',
    'location = "backend.example.org/team"',
    "[[registry.mirror]]",
    'location = "mirror-a.internal/cache"',
    "[[registry.mirror]]",
    'location = "mirror-b.internal:5000"',
    "[[registry]]",
    'location = "mirror-b.internal:5000"',
    "blocked = true",
  ].join("\n"),
});

describe("pullSources", () => {
  beforeEach(() => vi.clearAllMocks());

  it("reads the image once and each rewritten reference once", () => {
    const result = pullSources(conf, "example.com/team/app:1.0");
    expect(result.sources.map((s) => [s.reference, s.blocked])).toEqual([
      ["mirror-a.internal/cache/app:1.0", false],
      ["mirror-b.internal:5000/app:1.0", true],
      ["backend.example.org/team/app:1.0", false],
    ]);
    expect(parses()).toBe(1 + result.sources.length);
  });

  it("reads an image no prefix matches once, and reads the registries once", () => {
    let reads = 0;
    const counted = {
      get registries() {
        reads++;
        return conf.registries;
      },
    };
    const result = pullSources(counted, "quay.io/other/app");
    expect(result.sources.map((s) => [s.reference, s.blocked])).toEqual([
      ["quay.io/other/app:latest", false],
    ]);
    expect(parses()).toBe(1);
    expect(reads).toBe(1);
  });
});
