import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { isPlatformError, PlatformError } from "./errors.js";
import { parseAllPlatforms, parsePlatform, safeParsePlatform } from "./parse.js";

const host = { os: "linux", architecture: "amd64", variant: "" } as const;

describe("parsePlatform", () => {
  it.each([
    { input: "linux/amd64", want: ["linux", "amd64", ""] },
    { input: "Linux/x86_64", want: ["linux", "amd64", ""] },
    { input: "linux/aarch64", want: ["linux", "arm64", ""] },
    // Three pieces: arm64 keeps v8 (Normalize alone would drop it).
    { input: "linux/arm64/v8.0", want: ["linux", "arm64", "v8"] },
    { input: "linux/arm64/8", want: ["linux", "arm64", "v8"] },
    { input: "linux/arm", want: ["linux", "arm", ""] },
    { input: "linux/arm/7", want: ["linux", "arm", "v7"] },
    { input: "linux/armhf", want: ["linux", "arm", ""] },
    { input: "linux/armel", want: ["linux", "arm", "v6"] },
    { input: "macos/arm64", want: ["darwin", "arm64", ""] },
    { input: "linux/i386/anything", want: ["linux", "386", ""] },
    { input: "linux/unknowncpu", want: ["linux", "unknowncpu", ""] },
    { input: "linux", want: ["linux", "amd64", ""] },
    { input: "arm64", want: ["linux", "arm64", ""] },
    { input: "armhf", want: ["linux", "arm", ""] },
    // Capitals in any piece, with and without the OS's parentheses.
    { input: "MacOS/AArch64/V9.0", want: ["darwin", "arm64", "v9"] },
    { input: "LINUX/ARM/V5", want: ["linux", "arm", "v5"] },
    { input: "Windows(10.0)/AMD64", want: ["windows", "amd64", ""] },
    { input: "MACOS(1)/Arm64", want: ["darwin", "arm64", ""] },
  ])("$input", ({ input, want }) => {
    const p = parsePlatform(input, { host });
    expect([p.os, p.architecture, p.variant]).toEqual(want);
  });

  it("reads the OS version and features, percent-decoded, in written order", () => {
    expect(parsePlatform("windows(10.0.17763%2B1+win32k+a%2Fb+win32k)/amd64")).toEqual({
      os: "windows",
      architecture: "amd64",
      variant: "",
      osVersion: "10.0.17763+1",
      osFeatures: ["win32k", "a/b", "win32k"],
    });
    expect(parsePlatform("linux(+gpu)/amd64").osFeatures).toEqual(["gpu"]);
    expect(parsePlatform("windows()/amd64").osVersion).toBe("");
  });

  it("takes the host's CPU variant only on 32-bit arm other than v7", () => {
    expect(
      parsePlatform("linux", { host: { os: "linux", architecture: "arm", variant: "v6" } }).variant,
    ).toBe("v6");
    expect(
      parsePlatform("linux", { host: { os: "linux", architecture: "arm", variant: "v7" } }).variant,
    ).toBe("");
    expect(
      parsePlatform("linux", { host: { os: "linux", architecture: "arm64", variant: "v8" } })
        .variant,
    ).toBe("");
    expect(parsePlatform("amd64", { host: { os: "windows", architecture: "arm64" } }).os).toBe(
      "windows",
    );
  });

  it.each([
    {
      input: "linux/*",
      code: "WILDCARD_NOT_SUPPORTED",
      part: "specifier",
      value: "linux/*",
      message: '"linux/*": wildcards not yet supported: invalid argument',
    },
    {
      input: "lin ux/amd64",
      code: "INVALID_OS_COMPONENT",
      part: "os",
      value: "lin ux",
      message:
        '"lin ux" is an invalid OS component of "lin ux/amd64": OSAndVersion specifier component must match "^([A-Za-z0-9_-]+)(?:\\\\(([A-Za-z0-9_.%-]*)((?:\\\\+[A-Za-z0-9_.%-]+)*)\\\\))?$": invalid argument',
    },
    {
      input: "linux(+)/amd64",
      code: "INVALID_OS_COMPONENT",
      part: "os",
      value: "linux(+)",
    },
    {
      input: "linux/amd64/v\u00a0",
      code: "INVALID_COMPONENT",
      part: "variant",
      value: "v\u00a0",
      message:
        '"v\\u00a0" is an invalid component of "linux/amd64/v\\u00a0": platform specifier component must match "^[A-Za-z0-9_.-]+$": invalid argument',
    },
    { input: "linux//v8", code: "INVALID_COMPONENT", part: "architecture", value: "" },
    { input: "linux/a/b/c d", code: "INVALID_COMPONENT", part: "extra", value: "c d" },
    {
      // The OS piece, decoding included, is checked before the later pieces.
      input: "linux(%zz)/a b",
      code: "INVALID_OS_VERSION_ESCAPE",
      part: "osVersion",
      value: "%zz",
      message: '"linux(%zz)/a b" has an invalid OS version "%zz": invalid URL escape "%zz"',
    },
    {
      input: "linux(+a%4)/amd64",
      code: "INVALID_OS_FEATURE_ESCAPE",
      part: "osFeature",
      value: "a%4",
      message:
        '"linux(+a%4)/amd64" has invalid OS features: invalid os feature "a%4": invalid URL escape "%4"',
    },
    {
      input: "nosuchthing",
      code: "UNKNOWN_OS_OR_ARCH",
      part: "os",
      value: "nosuchthing",
      message: '"nosuchthing": unknown operating system or architecture: invalid argument',
    },
    {
      input: "linux/arm64/v8/x",
      code: "TOO_MANY_COMPONENTS",
      part: "extra",
      value: "x",
      message: '"linux/arm64/v8/x": cannot parse platform specifier: invalid argument',
    },
  ])("refuses $input with $code naming the $part", ({ input, code, part, value, message }) => {
    const r = safeParsePlatform(input, { host });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(isPlatformError(r.error)).toBe(true);
    expect([r.error.code, r.error.part, r.error.value, r.error.input]).toEqual([
      code,
      part,
      value,
      input,
    ]);
    if (message !== undefined) expect(r.error.message).toBe(message);
  });

  it("needs the host for a one-part specifier, and says which half it lacks", () => {
    const os = safeParsePlatform("linux");
    const arch = safeParsePlatform("arm64");
    expect(!os.success && [os.error.code, os.error.part]).toEqual([
      "HOST_REQUIRED",
      "architecture",
    ]);
    expect(!arch.success && [arch.error.code, arch.error.part]).toEqual(["HOST_REQUIRED", "os"]);
    // Two pieces never consult the host.
    expect(parsePlatform("linux/arm64").os).toBe("linux");
  });
});

describe("the wildcard check", () => {
  // Go looks for `*` before anything else; the parser looks only once some
  // other check failed, which must give the same answer for every input.
  const specifier = fc.string({
    unit: fc.constantFrom(
      "l",
      "A",
      "6",
      "_",
      "-",
      ".",
      "%",
      "2",
      "+",
      "(",
      ")",
      "/",
      "*",
      " ",
      "é",
    ),
    maxLength: 16,
  });

  it("refuses every specifier holding `*` as a wildcard, whatever else is wrong", () => {
    fc.assert(
      fc.property(specifier, (s) => {
        const r = safeParsePlatform(s, { host });
        if (s.includes("*")) {
          expect(r.success).toBe(false);
          if (!r.success) {
            expect([r.error.code, r.error.part, r.error.value]).toEqual([
              "WILDCARD_NOT_SUPPORTED",
              "specifier",
              s,
            ]);
          }
        } else if (!r.success) expect(r.error.code).not.toBe("WILDCARD_NOT_SUPPORTED");
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parseAllPlatforms", () => {
  it("parses in order and reports the first failure with its position", () => {
    expect(parseAllPlatforms([])).toEqual([]);
    expect(parseAllPlatforms(["linux/amd64", "windows/arm64"]).map((p) => p.os)).toEqual([
      "linux",
      "windows",
    ]);
    try {
      parseAllPlatforms(["linux/amd64", "linux/*", "bad bad"]);
      expect.unreachable();
    } catch (e) {
      if (!isPlatformError(e)) throw e;
      expect([e.code, e.index, e.message]).toEqual([
        "WILDCARD_NOT_SUPPORTED",
        1,
        'invalid platform linux/*: "linux/*": wildcards not yet supported: invalid argument',
      ]);
    }
  });
});

describe("the refusal's stack", () => {
  it("lists no frames when handed back as a value, and the caller's when thrown", () => {
    const r = safeParsePlatform("linux/arm 64");
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.error.stack).toBe(`PlatformError: ${r.error.message}`);
    let thrown: unknown;
    try {
      parsePlatform("linux/arm 64");
    } catch (e) {
      thrown = e;
    }
    expect(isPlatformError(thrown)).toBe(true);
    // Frames from parsePlatform's caller on, not the parser's insides.
    expect((thrown as Error).stack).toMatch(/^PlatformError: .*\n {4}at /);
    expect((thrown as Error).stack).not.toMatch(/parseOrRefuse|refuse/);
    expect(() => parseAllPlatforms(["linux/amd64", "linux/arm 64"])).toThrow(
      expect.objectContaining({ index: 1, stack: expect.stringMatching(/\n {4}at /) }),
    );
  });
});

describe("the refusal's message", () => {
  it("is not scanned again for control characters: Go's %q already escaped every one", () => {
    const test = vi.spyOn(RegExp.prototype, "test");
    try {
      const r = safeParsePlatform("lin\u001bux/arm 64");
      expect(r.success).toBe(false);
      if (r.success) return;
      expect(r.error.message).toContain('"lin\\x1bux"');
      expect(test).not.toHaveBeenCalled();
    } finally {
      test.mockRestore();
    }
  });

  it("is still escaped where a piece is not quoted", () => {
    expect(() => parseAllPlatforms(["linux/\u001b[2J"])).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/^invalid platform linux\/\\x1b\[2J: /),
      }),
    );
    const direct = new PlatformError("INVALID_COMPONENT", "a\u001bb", {
      input: "a",
      part: "os",
      value: "a",
    });
    expect(direct.message).toBe("a\\x1bb");
  });
});
