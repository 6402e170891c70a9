import { describe, expect, it } from "vitest";
import {
  ImageReferenceError,
  imageReferenceErrorMessage,
  isImageReferenceError,
} from "./errors.js";

describe("ImageReferenceError", () => {
  it.each([
    ["INVALID_REFERENCE_FORMAT", "", "invalid reference format"],
    ["NAME_CONTAINS_UPPERCASE", "", "repository name must be lowercase"],
    ["NAME_EMPTY", "", "repository name must have at least one component"],
    ["NAME_TOO_LONG", "", "repository name must not be more than 255 characters"],
    ["NAME_NOT_CANONICAL", "", "repository name must be canonical"],
    [
      "NAME_IS_HEX_IDENTIFIER",
      "abc",
      "invalid repository name (abc), cannot specify 64-byte hexadecimal strings",
    ],
    [
      "REMOTE_NAME_CONTAINS_UPPERCASE",
      "library/Foo",
      "invalid reference format: repository name (library/Foo) must be lowercase",
    ],
    ["TAG_INVALID_FORMAT", "", "invalid tag format"],
    ["REFERENCE_DIGEST_INVALID_FORMAT", "", "invalid digest format"],
    ["REFERENCE_HAS_NO_NAME", "sha256:x", "reference sha256:x has no name"],
    ["DIGEST_INVALID_FORMAT", "", "invalid checksum digest format"],
    ["DIGEST_INVALID_LENGTH", "", "invalid checksum digest length"],
    ["DIGEST_UNSUPPORTED", "", "unsupported digest algorithm"],
    ["BAD_PATTERN", "", "syntax error in pattern"],
  ] as const)("%s has the upstream message", (code, detail, message) => {
    expect(imageReferenceErrorMessage(code, detail)).toBe(message);
    const error = new ImageReferenceError(code, "the input", detail);
    expect(error).toMatchObject({ code, message, input: "the input", name: "ImageReferenceError" });
  });

  it("is recognised by brand and name, not only instanceof", () => {
    const lookalike = () =>
      Object.assign(new Error("invalid reference format"), {
        name: "ImageReferenceError",
        code: "INVALID_REFERENCE_FORMAT",
      });
    // Another copy of the package (CJS beside ESM) brands its errors with the same global symbol.
    const foreign = Object.defineProperty(lookalike(), Symbol.for("@kubeimg/core.KubeimgError"), {
      value: true,
    });
    expect(isImageReferenceError(foreign)).toBe(true);
    expect(isImageReferenceError(lookalike())).toBe(false);
    expect(isImageReferenceError(new Error("x"))).toBe(false);
    expect(isImageReferenceError("INVALID_REFERENCE_FORMAT")).toBe(false);
  });
});
