import { describe, expect, it } from "vitest";
import {
  isPullCredentialsConfigError,
  isPullRecordError,
  PullCredentialsConfigError,
  PullRecordError,
} from "./errors.js";

describe("the error guards", () => {
  const record = new PullRecordError("DECODE_ERROR", "cannot decode");
  const config = new PullCredentialsConfigError("UNKNOWN_POLICY", "bad policy", {
    field: "imagePullCredentialsVerificationPolicy",
    value: "Always",
  });

  it("recognise their own errors, and only those", () => {
    expect([isPullRecordError(record), isPullRecordError(config)]).toEqual([true, false]);
    expect([isPullCredentialsConfigError(config), isPullCredentialsConfigError(record)]).toEqual([
      true,
      false,
    ]);
  });
});
