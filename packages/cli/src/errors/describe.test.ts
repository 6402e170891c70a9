import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeError } from "./describe.js";

const systemError = (code: string, syscall: string, path?: string): Error =>
  Object.assign(new Error(`${code}: raw text, ${syscall} '${path}'`), {
    code,
    syscall,
    ...(path === undefined ? {} : { path }),
  });

describe("describeError on a Node system error that reached the top", () => {
  // Node's own text ("EACCES: permission denied, open '…'") is not shown:
  // one sentence names the path and the cause, with the code.
  it.each([
    {
      error: systemError("EACCES", "open", "/k/image_manager/pulled"),
      want: "/k/image_manager/pulled: cannot be read: permission denied [EACCES]",
    },
    {
      error: systemError("EIO", "read", "/k/x"),
      want: "/k/x: cannot be read: input/output error [EIO]",
    },
    { error: systemError("EIO", "read"), want: "a file cannot be read: input/output error [EIO]" },
    {
      error: systemError("EXDEV", "rename", "/k/a"),
      want: "/k/a: rename failed (system error EXDEV) [EXDEV]",
    },
    {
      error: systemError("ENOENT", "mkdir", "/k/c"),
      want: "/k/c: mkdir failed: no such file or directory [ENOENT]",
    },
    {
      error: systemError("EACCES", "mkdir", "/k/b"),
      want: "/k/b: mkdir failed: permission denied [EACCES]",
    },
  ])("$want", ({ error, want }) => {
    expect(describeError(error)).toBe(want);
  });

  it("describes real failures of fs the same way", async () => {
    const missing = join(tmpdir(), "kubeimg-describe-missing", "dir");
    const notFound = await readdir(missing).catch((e: unknown) => e);
    expect(describeError(notFound)).toBe(`${missing}: no such file or directory [ENOENT]`);
    const directory = await readFile(tmpdir()).catch((e: unknown) => e);
    expect(describeError(directory)).toBe("a file is a directory [EISDIR]");
  });

  it("leaves other errors as they were", () => {
    expect(describeError(new Error("plain"))).toBe("plain");
    expect(describeError(Object.assign(new Error("coded"), { code: "EACCES" }))).toBe("coded");
  });
});

describe("describeError on a plain-HTTP registry reached over TLS", () => {
  it("names the --insecure-registry flag besides the client option", async () => {
    const { RegistryError } = await import("@kubeimg/registry/client");
    const error = new RegistryError(
      "NETWORK_ERROR",
      'cannot reach https://r.local:5000/v2/: fetch failed (ERR_SSL_WRONG_VERSION_NUMBER) (the registry seems to speak plain HTTP, not TLS: if it does, set the client option registries["r.local:5000"].insecure: true)',
    );
    expect(describeError(error)).toMatch(
      /\(with kubeimg: --insecure-registry r\.local:5000\) \[NETWORK_ERROR\]$/,
    );
  });
});

describe("describeError on an answer a release choice would change", () => {
  it("names --upstream besides the library option (a v1 registries.conf)", async () => {
    const { loadRegistriesConf } = await import("@kubeimg/policy/node-mirrors");
    let error: unknown;
    try {
      loadRegistriesConf({ conf: '[registries.search]\nregistries = ["docker.io"]\n' });
    } catch (e) {
      error = e;
    }
    expect(describeError(error)).toMatch(
      /reads v1 files\) \(with kubeimg: --upstream containers-image=5\.36\) \[INVALID_REGISTRIES\]$/,
    );
  });
});
