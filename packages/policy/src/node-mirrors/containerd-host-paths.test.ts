import { path as goPath } from "@kubeimg/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOST_FIELD, HOST_FILE_CONFIG, HOSTS_FILE, joinName } from "./containerd-host-dir.js";
import { hostDirectoryName, hostPaths } from "./containerd-hosts.js";
import { NodeFiles } from "./node-files.js";

/** The candidate directories as containerd spells them: Go's path.Join of the root and each name. */
function joined(root: string, host: string): string[] {
  const ch = hostDirectoryName(host);
  return [
    ...(ch !== host ? [goPath.Join(root, ch)] : []),
    goPath.Join(root, host),
    goPath.Join(root, "_default"),
  ];
}

const segment = fc.constantFrom("", ".", "..", "etc", "certs.d", "a:1", "_default");
const pathText = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 5 }), fc.boolean())
  .map(
    ([rooted, parts, trailing]) => `${rooted ? "/" : ""}${parts.join("/")}${trailing ? "/" : ""}`,
  );
const host = fc.oneof(
  fc.constantFrom(
    "docker.io",
    "localhost:5000",
    "a:1:2",
    "",
    ".",
    "..",
    "x/y",
    ":80",
    "[::1]:5000",
  ),
  fc.string({ maxLength: 8 }),
);

describe("containerd host directory paths", () => {
  it("are path.Join's for any root and host", () => {
    fc.assert(
      fc.property(pathText, host, (root, h) => {
        expect(hostPaths(root, h)).toEqual(joined(root, h));
      }),
      { numRuns: 5_000 },
    );
  });

  it("joinName is path.Join for a clean directory and a plain name", () => {
    fc.assert(
      fc.property(pathText, fc.constantFrom("hosts.toml", "_default", "docker.io"), (raw, name) => {
        const dir = goPath.Clean(raw);
        expect(joinName(dir, name)).toBe(goPath.Join(dir, name));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("NodeFiles", () => {
  it("answers stat and read for unclean paths as for their clean form", () => {
    const files = new NodeFiles({
      "/etc/a/hosts.toml": "x",
      "/etc/b/": "",
      "/f": "y",
      "/f/g": "z",
    });
    for (const p of [
      "/etc/a/hosts.toml",
      "/etc//a/./hosts.toml",
      "/etc/b",
      "/etc/b/",
      "/f/g/h",
      "/f/x",
    ]) {
      expect(files.stat(p)).toBe(files.stat(goPath.Clean(p)));
      expect(files.read(p)).toEqual(files.read(goPath.Clean(p)));
    }
    expect(files.read("/etc//a/hosts.toml")).toEqual({ text: "x" });
    expect(files.stat("/f/x")).toBe("not-a-directory");
  });

  it("finds a file above a missing path however far up, with or without a path both file and directory", () => {
    const extras: Record<string, string>[] = [{}, { "/f": "y", "/f/g": "z" }];
    for (const extra of extras) {
      const files = new NodeFiles({ "/a/f": "x", "/b/c/d": "y", ...extra });
      expect(files.stat("/a/f/x/y/z")).toBe("not-a-directory");
      expect(files.stat("/a/f/x")).toBe("not-a-directory");
      expect(files.stat("/b/c/d/e")).toBe("not-a-directory");
      expect(files.stat("/b/c/e/f")).toBe("missing");
      expect(files.stat("/b/x")).toBe("missing");
      expect(files.stat("/zzz/q")).toBe("missing");
      expect(files.stat("/b/c")).toBe("dir");
      expect(files.stat("/b//c/")).toBe("dir");
    }
  });
});

describe("hosts.toml struct fields", () => {
  it("are numbered as the structs list them", () => {
    for (const [name, i] of Object.entries(HOST_FIELD)) {
      expect(HOSTS_FILE.fields[i]).toBe(name);
      expect(HOSTS_FILE.indexOf(name)).toBe(i);
      if (i < HOST_FILE_CONFIG.fields.length) expect(HOST_FILE_CONFIG.indexOf(name)).toBe(i);
    }
    expect(Object.keys(HOST_FIELD)).toEqual(HOSTS_FILE.fields);
  });
});
