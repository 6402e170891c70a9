import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadNodeRegistriesConf, type NodeRegistriesConfOptions } from "../index.js";
import {
  expectGoAnswer,
  goShape,
  recordedDiscovery,
} from "../registries-discovery.test-support.js";
import { readNodeRegistriesConf } from "./index.js";

let dir: string;

/** Writes `files` (absolute paths under `/node`, `x/` for a directory) under the temporary directory. */
function writeTree(files: Readonly<Record<string, string>>): void {
  for (const [key, text] of Object.entries(files)) {
    const path = join(dir, key.replace(/^\/node/, ""));
    if (key.endsWith("/")) {
      mkdirSync(path, { recursive: true });
    } else {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, text);
    }
  }
}

/** The options with `/node` moved to the temporary directory. */
function moved(options: NodeRegistriesConfOptions): NodeRegistriesConfOptions {
  return JSON.parse(JSON.stringify(options).split('"/node').join(`"${dir}`));
}

async function load(options: NodeRegistriesConfOptions) {
  const node = await readNodeRegistriesConf(options);
  return loadNodeRegistriesConf(node.files, { ...options, unreadable: node.unreadable });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-registries-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("readNodeRegistriesConf on a real directory tree", () => {
  it("orders drop-ins by basename across directories, a higher directory masking the same name", async () => {
    const shared = (location: string) =>
      `[[registry]]\nprefix = "shared.io"\nlocation = "${location}"\n`;
    writeTree({
      "/node/r/usr/share/containers/registries.conf": 'unqualified-search-registries = ["a.io"]\n',
      "/node/r/usr/share/containers/registries.conf.d/10.conf": shared("usr-10.io"),
      "/node/r/usr/share/containers/registries.conf.d/40.conf": shared("usr-40.io"),
      "/node/r/etc/containers/registries.rootless.conf.d/1000/20.conf": shared("uid-20.io"),
      "/node/r/etc/containers/registries.conf.d/40.conf": '[[registry]]\nlocation = "etc-40.io"\n',
      "/node/r/etc/containers/registries.conf.d/notes.txt": shared("ignored.io"),
      "/node/h/.config/containers/registries.conf.d/30.conf": shared("user-30.io"),
    });
    const conf = await load(moved({ root: "/node/r", uid: 1000, home: "/node/h" }));
    // 10, 20, 30 in name order across three directories; /etc's 40.conf masks /usr/share's.
    expect(conf.registries.map((r) => r.location)).toEqual(["etc-40.io", "user-30.io"]);
    expect(conf.unqualifiedSearchRegistriesOrigin).toBe(
      `${dir}/r/usr/share/containers/registries.conf`,
    );
  });

  it("lists a link as containers/image does: a dangling one masks its name, one to a directory fails", async () => {
    writeTree({
      "/node/r/usr/share/containers/registries.conf.d/10.conf":
        '[[registry]]\nlocation = "low.io"\n',
      "/node/r/etc/containers/registries.conf.d/": "",
      "/node/d/": "",
    });
    const etc = join(dir, "r/etc/containers/registries.conf.d");
    symlinkSync(join(dir, "nowhere"), join(etc, "10.conf"));
    expect((await load(moved({ root: "/node/r" }))).registries).toEqual([]);
    symlinkSync(join(dir, "d"), join(etc, "20.conf"));
    await expect(load(moved({ root: "/node/r" }))).rejects.toMatchObject({
      message: `loading registries configuration "${etc}/20.conf": read ${etc}/20.conf: is a directory`,
    });
  });

  it("turns a file in place of a drop-in directory into containers/image's listing error", async () => {
    writeTree({ "/node/r/etc/containers/registries.conf.d": "" });
    await expect(load(moved({ root: "/node/r" }))).rejects.toMatchObject({
      code: "READ_ERROR",
      message: `readdirent ${dir}/r/etc/containers/registries.conf.d: not a directory`,
    });
  });
});

describe("recorded 5.40 answers, read from a real tree", () => {
  it.each(recordedDiscovery.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    writeTree(c.files);
    const options = moved(c.options);
    const node = await readNodeRegistriesConf(options);
    const got = goShape(() =>
      loadNodeRegistriesConf(node.files, { ...options, unreadable: node.unreadable }),
    );
    expectGoAnswer(JSON.parse(JSON.stringify(got).split(dir).join("/node")), c.expect);
  });
});
