import { describe, expect, it } from "vitest";
import { isNodeMirrorsError } from "./errors.js";
import { loadRegistriesConf, type NodeMirrorsError } from "./index.js";

const v1 =
  '[registries.search]\nregistries = ["quay.io"]\n[registries.block]\nregistries = ["bad.io"]\n';

function thrown(f: () => unknown): NodeMirrorsError {
  try {
    f();
  } catch (error) {
    if (isNodeMirrorsError(error)) return error;
    throw error;
  }
  throw new Error("expected a NodeMirrorsError");
}

describe("containersImage release option", () => {
  it("5.40 (the default) rejects a v1 main file with containers/image's message", () => {
    const e = thrown(() => loadRegistriesConf({ conf: v1 }));
    expect(e.code).toBe("INVALID_REGISTRIES");
    expect(e.file).toBe("/etc/containers/registries.conf");
    expect(e.message).toContain(
      'loading registries configuration "/etc/containers/registries.conf": registries.conf must be in v2 format but is in v1',
    );
    expect(e.message).toContain('containersImage: "5.36"');
  });

  it("5.40 counts an empty v1 list as set, and rejects a v1 drop-in", () => {
    const empty = thrown(() =>
      loadRegistriesConf({
        conf: "[registries.insecure]\nregistries = []\n",
        containersImage: "5.40",
      }),
    );
    expect(empty.code).toBe("INVALID_REGISTRIES");
    const dropIn = thrown(() => loadRegistriesConf({ conf: "", dropIns: { "a.conf": v1 } }));
    expect(dropIn.file).toBe("/etc/containers/registries.conf.d/a.conf");
    expect(dropIn.message).toContain("registries.conf must be in v2 format but is in v1");
  });

  it("5.40 accepts a v1 table with no list, as the zero v1 struct", () => {
    expect(loadRegistriesConf({ conf: "[registries.search]\n" }).registries).toEqual([]);
  });

  it("5.36 converts a v1 main file and keeps its drop-in message", () => {
    const conf = loadRegistriesConf({ conf: v1, containersImage: "5.36" });
    expect(conf.unqualifiedSearchRegistries).toEqual(["quay.io"]);
    expect(conf.registries.map((r) => [r.prefix, r.blocked])).toEqual([["bad.io", true]]);
    const e = thrown(() =>
      loadRegistriesConf({ conf: "", dropIns: { "a.conf": v1 }, containersImage: "5.36" }),
    );
    expect(e.message).toBe("registry must be in v2 format but is in v1");
  });

  it("refuses a release it does not reproduce, naming the option", () => {
    const e = thrown(() =>
      loadRegistriesConf({ conf: "", containersImage: "5.38" as unknown as "5.40" }),
    );
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.key).toBe("containersImage");
  });

  it("5.40 wraps every error of one file with its name; 5.36 keeps the decoder's text", () => {
    const bad = 'short-name-mode = "bad"\n';
    expect(thrown(() => loadRegistriesConf({ conf: bad })).message).toBe(
      'loading registries configuration "/etc/containers/registries.conf": invalid short-name mode: "bad"',
    );
    expect(thrown(() => loadRegistriesConf({ conf: bad, containersImage: "5.36" })).message).toBe(
      'invalid short-name mode: "bad"',
    );
    const dropIn = thrown(() =>
      loadRegistriesConf({
        conf: "",
        dropIns: { "a.conf": '[[registry]]\nlocation = "http://x"\n' },
      }),
    );
    expect(dropIn.message).toMatch(
      /^loading registries configuration "\/etc\/containers\/registries.conf.d\/a.conf": invalid location/,
    );
  });

  it("5.40 returns a missing named file's open error as it is", () => {
    const e = thrown(() => loadRegistriesConf({ conf: null, confPath: "/x/registries.conf" }));
    expect(e.code).toBe("NO_CONFIG_FILE");
    expect(e.message).toBe("open /x/registries.conf: no such file or directory");
  });

  it("5.40 names no origin for a search list no file set; 5.36 names the main file", () => {
    expect(loadRegistriesConf({ conf: "" }).unqualifiedSearchRegistriesOrigin).toBe("");
    expect(
      loadRegistriesConf({ conf: "", containersImage: "5.36" }).unqualifiedSearchRegistriesOrigin,
    ).toBe("/etc/containers/registries.conf");
  });
});
