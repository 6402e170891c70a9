import { afterEach, describe, expect, it, vi } from "vitest";
import { parseGoUrl } from "./containerd-localhost.js";

describe("parseGoUrl", () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    {
      raw: "https://mirror.example:5000/v2/cache",
      want: ["https", "mirror.example:5000", "/v2/cache"],
    },
    { raw: "http://m%C3%A9/p%C3%A9", want: ["http", "mé", "/pé"] },
    { raw: "https://mé.example/ü", want: ["https", "mé.example", "/ü"] },
    { raw: "http:x", want: ["http", "", ""] },
  ])("$raw", ({ raw, want }) => {
    const u = parseGoUrl(raw);
    expect(u === undefined ? undefined : [u.scheme, u.host, u.path]).toEqual(want);
  });

  it("reads an ASCII server name as its own bytes, without encoding it", () => {
    let encoders = 0;
    vi.stubGlobal(
      "TextEncoder",
      class extends TextEncoder {
        constructor() {
          super();
          encoders++;
        }
      },
    );
    expect(parseGoUrl("https://mirror.example/v2")?.host).toBe("mirror.example");
    expect(encoders).toBe(0);
  });
});
