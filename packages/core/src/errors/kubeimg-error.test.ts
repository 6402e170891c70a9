import { describe, expect, it } from "vitest";
import { errorGuard, isKubeimgError, KubeimgError, withoutStackFrames } from "./kubeimg-error.js";

class SampleError extends KubeimgError {
  override readonly name = "SampleError";
  readonly code = "SAMPLE";
}

class OtherError extends KubeimgError {
  override readonly name = "OtherError";
  readonly code = "OTHER";
}

/** An error as another copy of the package (the CJS build beside the ESM one) would create it. */
function foreignCopyError(): Error {
  const error = new Error("from the other copy") as Error & { code: string };
  error.name = "SampleError";
  error.code = "SAMPLE";
  Object.defineProperty(error, Symbol.for("@kubeimg/core.KubeimgError"), { value: true });
  return error;
}

function nodeError(code: string, name = "Error"): Error {
  const error = new Error("node") as Error & { code: string };
  error.name = name;
  error.code = code;
  return error;
}

describe("isKubeimgError", () => {
  it.each([
    { what: "an instance", value: new SampleError("x"), want: true },
    { what: "a branded error of another copy", value: foreignCopyError(), want: true },
    // Node's errors have a string code and a name ending in Error: not ours.
    { what: "ECONNRESET", value: nodeError("ECONNRESET"), want: false },
    {
      what: "ERR_INVALID_ARG_TYPE",
      value: nodeError("ERR_INVALID_ARG_TYPE", "TypeError"),
      want: false,
    },
    {
      what: "a RangeError with a code",
      value: nodeError("ERR_OUT_OF_RANGE", "RangeError"),
      want: false,
    },
    { what: "a look-alike name", value: nodeError("SAMPLE", "SampleError"), want: false },
    { what: "a plain object", value: { name: "SampleError", code: "SAMPLE" }, want: false },
    { what: "null", value: null, want: false },
  ])("$what", ({ value, want }) => {
    expect(isKubeimgError(value)).toBe(want);
  });
});

describe("errorGuard", () => {
  const isSampleError = errorGuard<SampleError>("SampleError");

  it.each([
    { what: "an instance", value: new SampleError("x"), want: true },
    { what: "the same class from another copy", value: foreignCopyError(), want: true },
    { what: "another kubeimg error", value: new OtherError("x"), want: false },
    {
      what: "a Node error with the same name and a code",
      value: nodeError("SAMPLE", "SampleError"),
      want: false,
    },
    { what: "undefined", value: undefined, want: false },
  ])("$what", ({ value, want }) => {
    expect(isSampleError(value)).toBe(want);
  });

  it("keeps the written name under minification (not the constructor's)", () => {
    const Renamed = class extends SampleError {};
    expect(new Renamed("x").name).toBe("SampleError");
  });
});

describe("KubeimgError messages", () => {
  // Foreign text (a registry's answer, a file's line) often ends up in a
  // message; printed or logged raw, its controls drive the terminal.
  it.each([
    { what: "ESC (a CSI sequence)", raw: "a\u001b[2Jb", want: "a\\x1b[2Jb" },
    { what: "BEL (ends an OSC title)", raw: "\u001b]0;pwned\u0007", want: "\\x1b]0;pwned\\a" },
    { what: "CR (overwrites the line)", raw: "ok\rforged", want: "ok\\rforged" },
    { what: "C1 CSI", raw: "a\u009b31mb", want: "a\\u009b31mb" },
    { what: "DEL", raw: "a\u007fb", want: "a\\x7fb" },
    { what: "NUL, BS, VT, FF", raw: "\u0000\b\v\f", want: "\\x00\\b\\v\\f" },
    { what: "newline and tab stay", raw: "line 1\n\tline 2", want: "line 1\n\tline 2" },
    // Not controls: Go's messages quote them raw, and ours copy Go's.
    {
      what: "line separators, bidi overrides stay",
      raw: "a\u2028b\u202ec",
      want: "a\u2028b\u202ec",
    },
    { what: "other text stays", raw: "é 日本 \u00a0 \\x1b", want: "é 日本 \u00a0 \\x1b" },
  ])("escape $what", ({ raw, want }) => {
    const error = new SampleError(raw);
    expect(error.message).toBe(want);
    expect(error.rawMessage).toBe(raw === want ? undefined : raw);
    expect(error.stack?.split("\n")[0]).toBe(`SampleError: ${want.split("\n")[0]}`);
    // No control character but newline and tab is left in message or stack.
    for (const c of `${error.message}${error.stack}`) {
      const code = c.codePointAt(0) ?? 0;
      if (c !== "\n" && c !== "\t")
        expect(code < 0x20 || (code >= 0x7f && code < 0xa0)).toBe(false);
    }
  });
});

describe("KubeimgError construction", () => {
  it("adds no own property beyond Error's, and keeps what Error gives", () => {
    const cause = new Error("below");
    const error = new SampleError("x", { cause });
    // The brand is read from the prototype: building an error defines nothing extra.
    expect(Reflect.ownKeys(error).filter((k) => typeof k === "symbol")).toEqual([]);
    expect(isKubeimgError(error)).toBe(true);
    expect(error).toBeInstanceOf(KubeimgError);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.message, error.cause]).toEqual([
      "SampleError",
      "SAMPLE",
      "x",
      cause,
    ]);
    expect(error.stack).toMatch(/^SampleError: x\n {4}at /);
  });

  it("takes cause as Error does: only when the options hold one, even undefined or inherited", () => {
    const own = (e: Error) => Object.getOwnPropertyDescriptor(e, "cause");
    const native = (options?: object) => own(new Error("x", options as ErrorOptions));
    for (const options of [
      undefined,
      {},
      { cause: undefined },
      { cause: 0 },
      Object.create({ cause: "inherited" }) as object,
    ]) {
      expect(own(new SampleError("x", options as { cause?: unknown }))).toEqual(native(options));
    }
  });
});

describe("withoutStackFrames", () => {
  it("builds errors whose stack names them but lists no frames", () => {
    const error = withoutStackFrames(() => new SampleError("refused"));
    expect(error.stack).toBe("SampleError: refused");
    expect(isKubeimgError(error)).toBe(true);
    // Errors built afterwards have their frames again.
    expect(new SampleError("y").stack).toMatch(/\n {4}at /);
  });

  it("restores the limit when building throws, and leaves capture off when it was off", () => {
    const limits = Error as ErrorConstructor & { stackTraceLimit: number };
    const before = limits.stackTraceLimit;
    expect(() =>
      withoutStackFrames(() => {
        throw new SampleError("thrown");
      }),
    ).toThrow("thrown");
    expect(limits.stackTraceLimit).toBe(before);
    limits.stackTraceLimit = 0;
    try {
      expect(withoutStackFrames(() => limits.stackTraceLimit)).toBe(0);
    } finally {
      limits.stackTraceLimit = before;
    }
  });
});
