/**
 * The `containerd` option: which release's hosts.toml reading to reproduce.
 * v2.3.4 and v2.4.0-beta.0 (and main at 301026e) share one hosts.go, so both
 * releases answer every recorded case as containerd v2.3.4 did; a release
 * kubeimg does not reproduce is refused, naming the option.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NodeMirrorsError } from "./errors.js";
import {
  containerdReleases,
  createContainerdHostsResolver,
  resolveContainerdHosts,
} from "./index.js";

interface Recorded {
  readonly host: string;
  readonly toml: string;
  readonly want: { readonly hosts: readonly { readonly host: string; readonly path: string }[] };
}

const recorded: Recorded[] = [
  "./testdata/containerd-degenerate-hosts.jsonl",
  "./testdata/containerd-key-folding.jsonl",
].flatMap((file) =>
  readFileSync(new URL(file, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Recorded)
    .filter((r) => r.want?.hosts !== undefined),
);

describe("containerd releases", () => {
  it("lists the releases oldest first, the LTS line and the newest", () => {
    expect(containerdReleases).toEqual(["2.3", "2.4"]);
  });

  it.each(containerdReleases)(
    "%s reads the recorded hosts.toml files as containerd v2.3.4",
    (containerd) => {
      expect(recorded.length).toBeGreaterThan(40);
      for (const r of recorded) {
        const dir = r.host.replace(/:(\d+)$/, "_$1_");
        const files = { [`/etc/containerd/certs.d/${dir}/hosts.toml`]: r.toml };
        const options = { certificateFiles: "assume-present", containerd } as const;
        const hosts = resolveContainerdHosts(r.host, files, options).hosts;
        expect(
          hosts.map((h) => ({ host: h.host, path: h.path })),
          r.toml,
        ).toEqual(r.want.hosts.map((h) => ({ host: h.host, path: h.path })));
      }
    },
  );

  it("refuses a release it does not reproduce, naming the option", () => {
    const bad = { containerd: "2.5" } as unknown as { containerd: "2.4" };
    for (const call of [
      () => resolveContainerdHosts("docker.io", {}, bad),
      () => createContainerdHostsResolver({}, bad),
    ]) {
      let caught: unknown;
      try {
        call();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(NodeMirrorsError);
      expect((caught as NodeMirrorsError).key).toBe("containerd");
      expect((caught as NodeMirrorsError).message).toBe(
        'containerd: "2.5" is not a reproduced release (2.3, 2.4)',
      );
    }
  });
});
