import { describe, expect, it, vi } from "vitest";
import { createContainerdHostsResolver, resolveContainerdHosts } from "./containerd-hosts.js";
import { isNodeMirrorsError, type NodeMirrorsError } from "./errors.js";
import { findRegistry, loadRegistriesConf, pullSources } from "./registries-conf.js";
import { resolveShortName } from "./short-names.js";

const certs = "/etc/containerd/certs.d";

function thrown(fn: () => unknown): NodeMirrorsError {
  try {
    fn();
  } catch (error) {
    if (isNodeMirrorsError(error)) return error;
    throw error;
  }
  throw new Error("expected a NodeMirrorsError");
}

describe("resolveContainerdHosts", () => {
  it("gives every header its own property, __proto__ and constructor included", () => {
    const r = resolveContainerdHosts("docker.io", {
      [`${certs}/docker.io/hosts.toml`]:
        '[host."https://m.example".header]\n__proto__ = "a"\nconstructor = ["b", "c"]\nx-y = "d"\n',
    });
    const header = r.hosts[0]?.header ?? {};
    expect(Object.getPrototypeOf(header)).toBe(Object.prototype);
    expect(Object.entries(header)).toEqual([
      ["__proto__", ["a"]],
      ["constructor", ["b", "c"]],
      ["x-y", ["d"]],
    ]);
    expect(r.hosts[1]?.header).toEqual({});
  });

  it("tries the [host] entries in file order, then the server, never the upstream", () => {
    const r = resolveContainerdHosts("docker.io", {
      [`${certs}/docker.io/hosts.toml`]:
        'server = "https://b.example"\n[host."https://m2.example"]\n[host."http://m1.example:5000"]\nskip_verify = true\n',
    });
    expect(r.hosts.map((h) => `${h.scheme}://${h.host}${h.path}`)).toEqual([
      "https://m2.example/v2",
      "https://m1.example:5000/v2",
      "https://b.example/v2",
    ]);
    expect(r.hosts[1]?.httpFallback).toBe(true);
    expect(r.warnings.map((w) => w.code)).toContain("SERVER_HIDES_UPSTREAM");
  });

  it("reports an unparseable hosts.toml with file, line and column, and falls back like containerd", () => {
    const r = resolveContainerdHosts("docker.io", {
      [`${certs}/docker.io/hosts.toml`]: 'server = "https://a.example"\ncapabilities = "pull"\n',
      [`${certs}/docker.io/ca.crt`]: "",
    });
    expect(r.hosts).toHaveLength(1);
    expect(r.hosts[0]).toMatchObject({
      host: "registry-1.docker.io",
      ca: [`${certs}/docker.io/ca.crt`],
    });
    expect(r.warnings[0]).toMatchObject({
      code: "HOSTS_TOML_IGNORED",
      file: `${certs}/docker.io/hosts.toml`,
      line: 2,
      column: 16,
      key: "capabilities",
    });
  });

  it("decodes like go-toml: unknown tables are skipped unchecked, every spelling of a key is type-checked", () => {
    const files = (text: string) => ({ [`${certs}/docker.io/hosts.toml`]: text });
    const skipped = resolveContainerdHosts(
      "docker.io",
      files('server = "https://m.example"\n[notes]\nx = 1\nx = 2\n'),
    );
    expect(skipped.hosts.map((h) => h.host)).toEqual(["m.example"]);
    const spelled = resolveContainerdHosts(
      "docker.io",
      files('server = "https://m.example"\ncapabilities = "pull"\nCapabilities = ["pull"]\n'),
    );
    expect(spelled.hosts.map((h) => h.host)).toEqual(["registry-1.docker.io"]);
  });

  it("lets root 1's _default beat root 2's host directory", () => {
    const r = resolveContainerdHosts(
      "quay.io",
      {
        "/a/_default/hosts.toml": 'server = "https://default.example"',
        "/b/quay.io/hosts.toml": 'server = "https://quay-mirror.example"',
      },
      { configPath: "/a:/b" },
    );
    expect(r.dir).toBe("/a/_default");
  });

  it("warns that the transfer service ignores a multi-root config_path", () => {
    const r = resolveContainerdHosts(
      "docker.io",
      { [`${certs}/docker.io/hosts.toml`]: 'server = "https://m.example"' },
      { configPath: "/etc/containerd/certs.d:/etc/docker/certs.d", lookup: "single" },
    );
    expect(r.dir).toBeNull();
    expect(r.warnings.map((w) => w.code)).toEqual(["TRANSFER_SERVICE_IGNORES_HOSTS"]);
  });

  it("fails with LOAD_ERROR for a CA file the node lacks, and HOST_DIR_ERROR for a root that is a file", () => {
    const missing = thrown(() =>
      resolveContainerdHosts("docker.io", {
        [`${certs}/docker.io/hosts.toml`]: 'ca = "/etc/certs/none.pem"',
      }),
    );
    expect(missing).toMatchObject({ code: "LOAD_ERROR", file: "/etc/certs/none.pem" });
    const rootIsFile = thrown(() => resolveContainerdHosts("docker.io", { [certs]: "" }));
    expect(rootIsFile.code).toBe("HOST_DIR_ERROR");
  });
});

describe("registries.conf", () => {
  it("names the file, line, column and key of a wrong value type", () => {
    const error = thrown(() =>
      loadRegistriesConf({
        conf: "",
        dropIns: { "10-x.conf": '[[registry]]\nlocation = "a.example"\ninsecure = "yes"\n' },
      }),
    );
    expect(error).toMatchObject({
      code: "TOML_ERROR",
      file: "/etc/containers/registries.conf.d/10-x.conf",
      line: 3,
      column: 12,
      key: "registry[0].insecure",
    });
  });

  it("warns about what containers/image drops silently", () => {
    const conf = loadRegistriesConf({
      conf: '[[registry]]\nlocation = "a.example"\nmirorr = 1\n[[registry]]\nlocation = "a.example"\n',
      dropIns: { "notes.txt": "" },
    });
    expect(conf.warnings.map((w) => w.code).sort()).toEqual([
      "DUPLICATE_PREFIX",
      "IGNORED_FILE",
      "UNKNOWN_KEY",
    ]);
    expect(conf.warnings.find((w) => w.code === "UNKNOWN_KEY")).toMatchObject({
      line: 3,
      key: "registry[0].mirorr",
    });
  });

  it("skips digest-only mirrors for a tag, uses a blocked registry's mirrors and explains each step", () => {
    const conf = loadRegistriesConf({
      conf: [
        "[[registry]]",
        'prefix = "docker.io/library"',
        'location = "docker.io/library"',
        "blocked = true",
        "[[registry.mirror]]",
        'location = "m1.example/lib"',
        'pull-from-mirror = "digest-only"',
        "[[registry.mirror]]",
        'location = "m2.example/lib"',
      ].join("\n"),
    });
    const r = pullSources(conf, "nginx:1.27");
    expect(r.sources.map((s) => [s.reference, s.blocked])).toEqual([
      ["m2.example/lib/nginx:1.27", false],
      ["docker.io/library/nginx:1.27", true],
    ]);
    expect(r.explain.join("\n")).toContain("m1.example/lib skipped");
    expect(findRegistry(conf, "docker.io/libraryx")).toBeNull();
  });

  it("resolves short names from aliases before search registries", () => {
    const conf = loadRegistriesConf({
      conf: 'unqualified-search-registries = ["quay.io", "docker.io"]\n[aliases]\nconstructor = "quay.io/c/c"\n',
    });
    expect(resolveShortName(conf, "constructor:1").candidates).toEqual(["quay.io/c/c:1"]);
    expect(resolveShortName(conf, "hasownproperty").candidates).toEqual([
      "quay.io/hasownproperty:latest",
      "docker.io/library/hasownproperty:latest",
    ]);
    expect(thrown(() => resolveShortName(conf, "toString")).code).toBe("INVALID_INPUT");
  });
});

describe("deeply nested node files", () => {
  const deep = {
    arrays: `x = ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`,
    "inline tables": `x = ${"{a=".repeat(20_000)}1${"}".repeat(20_000)}\n`,
  };

  it.each(Object.entries(deep))(
    "%s: resolveContainerdHosts answers LIMIT_EXCEEDED naming the file and the bound",
    (_, text) => {
      const file = `${certs}/docker.io/hosts.toml`;
      const error = thrown(() => resolveContainerdHosts("docker.io", { [file]: text }));
      expect(error.code).toBe("LIMIT_EXCEEDED");
      expect(error.file).toBe(file);
      expect(error.message).toContain(file);
      expect(error.message).toContain("deeper than 128 levels");
    },
  );

  it.each(Object.entries(deep))(
    "%s: loadRegistriesConf answers LIMIT_EXCEEDED naming the file and the bound",
    (_, text) => {
      const error = thrown(() =>
        loadRegistriesConf({
          conf: "",
          dropIns: { "50-deep.conf": text },
          dropInDir: "/etc/containers/registries.conf.d",
        }),
      );
      expect(error.code).toBe("LIMIT_EXCEEDED");
      expect(error.file).toBe("/etc/containers/registries.conf.d/50-deep.conf");
      expect(error.message).toContain("deeper than 128 levels");
    },
  );

  it("reads a file at the bound through the decoders without a stack overflow", () => {
    const atBound = `[host."https://m.example".header]\nx = ${"[".repeat(123)}${"]".repeat(123)}\n`;
    const r = resolveContainerdHosts("docker.io", { [`${certs}/docker.io/hosts.toml`]: atBound });
    expect(r.warnings.map((w) => w.code)).toContain("HOSTS_TOML_IGNORED");
    const conf = loadRegistriesConf({ conf: `x = ${"{a=".repeat(127)}1${"}".repeat(127)}\n` });
    expect(conf.registries).toEqual([]);
  });
});

describe("createContainerdHostsResolver with preload", () => {
  /** Calls of the string and collection operations a directory listing is made of. */
  function operations(fn: () => void): number {
    let calls = 0;
    const targets: [object, string][] = [
      [String.prototype, "startsWith"],
      [String.prototype, "slice"],
      [String.prototype, "indexOf"],
      [Map.prototype, "get"],
      [Map.prototype, "set"],
      [Set.prototype, "has"],
      [Set.prototype, "add"],
    ];
    const spies = targets.map(([target, name]) => {
      type Method = (...args: unknown[]) => unknown;
      const methods = target as Record<string, Method>;
      const original = methods[name] as Method;
      return vi.spyOn(methods, name).mockImplementation(function (this: unknown, ...args) {
        calls++;
        return original.apply(this, args);
      });
    });
    try {
      fn();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return calls;
  }

  it("lists the host directories with work linear in their number", () => {
    // Directories without hosts.toml: each is listed for its certificate files.
    const perDirectory = (n: number) => {
      const files: Record<string, string> = {};
      for (let i = 0; i < n; i++) files[`${certs}/registry-${i}.example/ca.crt`] = "";
      return operations(() => createContainerdHostsResolver(files, { preload: true })) / n;
    };
    const small = perDirectory(100);
    const large = perDirectory(1_000);
    expect(large / small).toBeLessThan(2);
  });
});
