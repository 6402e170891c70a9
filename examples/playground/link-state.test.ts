/**
 * Links are text others write: a fragment inflates only up to the largest
 * state the page writes itself, and is abandoned as soon as it passes that.
 */
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  decodeLink,
  encodeLink,
  inflateBounded,
  MAX_FRAGMENT_CHARS,
  MAX_INFLATED_BYTES,
  MAX_LINK_STATE,
} from "./src/link-state.js";

const fragmentOf = (bytes: Uint8Array) => `#s=${Buffer.from(bytes).toString("base64url")}`;

describe("playground links", () => {
  it("reads back the largest state the page writes", async () => {
    // Three UTF-8 bytes per character: the most a link's JSON can weigh.
    const state = { view: "tags", policy: "€".repeat(MAX_LINK_STATE - 40) };
    const json = JSON.stringify(state);
    expect(json.length).toBeLessThanOrEqual(MAX_LINK_STATE);
    const fragment = await encodeLink(json);
    expect(fragment).toBeDefined();
    expect(await decodeLink(`#${fragment}`)).toEqual({ value: state });
  });

  it("refuses a small link that inflates to megabytes of tags, with a message", async () => {
    // About 2.4 MB of tags in a link of a few KB (deflate reaches about 1000:1).
    const tags = Array.from({ length: 400_000 }, () => "1.0.0").join("\n");
    const fragment = fragmentOf(deflateRawSync(JSON.stringify({ view: "tags", tags })));
    expect(fragment.length).toBeLessThan(10_000);
    const decoded = await decodeLink(fragment);
    expect(decoded).toEqual({ refused: expect.stringContaining("not loaded") });
    expect(decoded && "refused" in decoded && decoded.refused).toContain(
      `${MAX_INFLATED_BYTES / 1000} KB`,
    );
  });

  it("stops inflating at the first step past the bound", async () => {
    const bomb = deflateRawSync(Buffer.alloc(32 * 1024 * 1024));
    const result = await inflateBounded(bomb, MAX_INFLATED_BYTES);
    expect(result.kind).toBe("too-large");
    // Produced: the bound and at most one step's output (1 KB of input inflates to ~1 MB).
    expect(result.kind === "too-large" && result.inflated).toBeLessThanOrEqual(
      MAX_INFLATED_BYTES + 1100 * 1024,
    );
  });

  it("refuses a fragment longer than any link the page writes, before decoding it", async () => {
    const decoded = await decodeLink(`#s=${"A".repeat(MAX_FRAGMENT_CHARS + 1)}`);
    expect(decoded).toEqual({ refused: expect.stringContaining("not loaded") });
  });

  it.each(["", "#", "#other", "#s=", "#s=!!!", "#s=AAAA", fragmentOf(deflateRawSync("[1]"))])(
    "%j is not a state",
    async (fragment) => {
      expect(await decodeLink(fragment)).toBeUndefined();
    },
  );
});
