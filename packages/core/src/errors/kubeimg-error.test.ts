import { describe, expect, it } from "vitest";
import { errorGuard, isKubeimgError, KubeimgError } from "./kubeimg-error.js";

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
