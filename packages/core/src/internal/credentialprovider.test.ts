import { describe, expect, it } from "vitest";
import { hashAuthConfig, hashAuthConfigInput } from "./credentialprovider.js";
import { fromByteStringEscaped } from "./utf8.js";

/** A string holding raw bytes (possibly invalid UTF-8) as Go would see them. */
const bytes = (...values: number[]) => fromByteStringEscaped(String.fromCharCode(...values));

// Expected values are what Go 1.19's encoding/json and hashAuthConfig give.
describe("hashAuthConfig", () => {
  it.each([
    {
      username: "a\bb\fc",
      want: "af702d10ade23e5169e191811e2d916ae01cd836b78d1a97b2c6db8fd3fdf76b",
    },
    {
      username: bytes(0, 1, 0x1f, 0x7f),
      want: "4678df56cbb37748131b22086d6c9596738fb17e338c1dbe357cd33fc55ce80c",
    },
    { username: "<a&b>", want: "49fe06e505487207ae221af1ac834a403a48d9e2b0815bd1f9e0f2983bfe1c80" },
    {
      username: "\u2028\u2029",
      want: "8aa66299aa5197970411dd3ca4aba7b3bc73d0b2346fa5758d206b0f2e6a4a31",
    },
    {
      username: bytes(0xff, 0xc3),
      want: "9934de36e9f6dc877196a6182f308ba5d6086ea6e3d6e33c959c648426825c0b",
    },
    {
      username: "\t\n\r",
      want: "29cec408a36988ab2b239a8911ec59f08cd00c6bf74d182e95a5bb523d19da43",
    },
  ])("$want", ({ username, want }) => {
    expect(hashAuthConfig({ username, password: "p" })).toBe(want);
  });

  it("hashes the kubelet's test credential as the kubelet does", () => {
    expect(hashAuthConfig({ username: "user", password: "password" })).toBe(
      "a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d",
    );
  });

  it("leaves empty fields out, in username, password, email order", () => {
    expect(hashAuthConfigInput({ email: "me@example.com", username: "u", password: "" })).toBe(
      '{"username":"u","email":"me@example.com"}',
    );
  });
});
