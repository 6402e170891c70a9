import { describe, expect, it } from "vitest";
import { isKubeimgError, KubeimgError } from "./kubeimg-error.js";

class SampleError extends KubeimgError {
  readonly code = "SAMPLE";
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
