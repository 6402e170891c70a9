import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact.js";

describe("redactUrl", () => {
  it("drops userinfo and secret query values", () => {
    expect(redactUrl("https://u:p@r.io/token?scope=x&access_token=abc&X-Amz-Signature=s")).toBe(
      "https://r.io/token?scope=x&access_token=REDACTED&X-Amz-Signature=REDACTED",
    );
  });
});
