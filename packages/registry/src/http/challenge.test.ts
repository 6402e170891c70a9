import { describe, expect, it } from "vitest";
import { parseWwwAuthenticate, pickChallenge } from "./challenge.js";

describe("parseWwwAuthenticate", () => {
  it.each([
    {
      header:
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/nginx:pull"',
      want: [
        {
          scheme: "bearer",
          params: {
            realm: "https://auth.docker.io/token",
            service: "registry.docker.io",
            scope: "repository:library/nginx:pull",
          },
        },
      ],
    },
    {
      // Codeberg: two challenges in one header.
      header:
        'Bearer realm="https://codeberg.org/v2/token",service="container_registry",scope="*", Basic realm="Gitea Package API"',
      want: [
        {
          scheme: "bearer",
          params: {
            realm: "https://codeberg.org/v2/token",
            service: "container_registry",
            scope: "*",
          },
        },
        { scheme: "basic", params: { realm: "Gitea Package API" } },
      ],
    },
    {
      header: 'bEaReR Realm="a,b", scope="repository:x:pull,push" , error=insufficient_scope',
      want: [
        {
          scheme: "bearer",
          params: { realm: "a,b", scope: "repository:x:pull,push", error: "insufficient_scope" },
        },
      ],
    },
    {
      header: 'Basic realm="say \\"hi\\""',
      want: [{ scheme: "basic", params: { realm: 'say "hi"' } }],
    },
    { header: "Negotiate", want: [{ scheme: "negotiate", params: {} }] },
    { header: "", want: [] },
  ])("$header", ({ header, want }) => {
    expect(parseWwwAuthenticate(header)).toEqual(want);
  });

  it("prefers Bearer, then Basic", () => {
    expect(pickChallenge(parseWwwAuthenticate('Basic realm="r", Bearer realm="t"'))?.scheme).toBe(
      "bearer",
    );
    expect(pickChallenge(parseWwwAuthenticate('Negotiate, Basic realm="r"'))?.scheme).toBe("basic");
    expect(pickChallenge(parseWwwAuthenticate("Negotiate"))).toBeUndefined();
  });
});
