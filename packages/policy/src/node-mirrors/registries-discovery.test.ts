import { describe, expect, it } from "vitest";
import { isNodeMirrorsError } from "./errors.js";
import {
  loadNodeRegistriesConf,
  type NodeMirrorsError,
  type NodeRegistriesConfOptions,
  type RegistriesConf,
} from "./index.js";
import {
  expectGoAnswer,
  goShape,
  recordedDiscovery,
  recordedDiscovery536,
} from "./registries-discovery.test-support.js";

function thrown(f: () => unknown): NodeMirrorsError {
  try {
    f();
  } catch (error) {
    if (isNodeMirrorsError(error)) return error;
    throw error;
  }
  throw new Error("expected a NodeMirrorsError");
}

const reg = (location: string) => `[[registry]]\nlocation = "${location}"\n`;
const shared = (location: string) =>
  `[[registry]]\nprefix = "shared.io"\nlocation = "${location}"\n`;
const locations = (conf: RegistriesConf) => conf.registries.map((r) => r.location);

describe("loadNodeRegistriesConf, 5.40 discovery", () => {
  it("reads the first main file that exists: the user's, then /etc, then /usr/share", () => {
    const files = {
      "/usr/share/containers/registries.conf": reg("usr.io"),
      "/etc/containers/registries.conf": reg("etc.io"),
      "/root/.config/containers/registries.conf": reg("user.io"),
    };
    expect(locations(loadNodeRegistriesConf(files))).toEqual(["user.io"]);
    const { "/root/.config/containers/registries.conf": _user, ...system } = files;
    expect(locations(loadNodeRegistriesConf(system))).toEqual(["etc.io"]);
  });

  it("orders drop-ins by basename across directories; a higher directory masks the same name", () => {
    const files = {
      "/usr/share/containers/registries.conf.d/10.conf": shared("usr-10.io"),
      "/usr/share/containers/registries.conf.d/30.conf": shared("usr-30.io"),
      "/etc/containers/registries.conf.d/20.conf": shared("etc-20.io"),
      "/etc/containers/registries.conf.d/30.conf": reg("etc-30.io"),
      "/etc/containers/registries.rootful.conf.d/05.conf": reg("rootful-05.io"),
      "/etc/containers/registries.rootless.conf.d/01.conf": reg("rootless.io"),
    };
    const conf = loadNodeRegistriesConf(files);
    // 10 (usr), 20 (etc) in name order; /etc's 30.conf masks /usr/share's; rootless unread for uid 0.
    expect(locations(conf)).toEqual(["etc-30.io", "rootful-05.io", "etc-20.io"]);
    expect(conf.warnings.map((w) => w.file)).toContain(
      "/usr/share/containers/registries.conf.d/30.conf",
    );
  });

  it("lists the files it merged, in the order it read them", () => {
    const conf = loadNodeRegistriesConf(
      {
        "/etc/containers/registries.conf": reg("etc.io"),
        "/usr/share/containers/registries.conf.d/10.conf": reg("usr-10.io"),
        "/usr/share/containers/registries.conf.d/30.conf": reg("usr-30.io"),
        "/etc/containers/registries.conf.d/20.conf": reg("etc-20.io"),
        "/etc/containers/registries.conf.d/30.conf": reg("etc-30.io"),
        "/o.conf": reg("override.io"),
      },
      { env: { CONTAINERS_REGISTRIES_CONF_OVERRIDE: "/o.conf" } },
    );
    expect(conf.files).toEqual([
      "/etc/containers/registries.conf",
      "/usr/share/containers/registries.conf.d/10.conf",
      "/etc/containers/registries.conf.d/20.conf",
      "/etc/containers/registries.conf.d/30.conf",
      "/o.conf",
    ]);
    const older = loadNodeRegistriesConf(
      {
        "/etc/containers/registries.conf.d/b.conf": reg("b.io"),
        "/etc/containers/registries.conf.d/a.conf": reg("a.io"),
      },
      { containersImage: "5.36" },
    );
    // 5.36: no main file, the directory in name order.
    expect(older.files).toEqual([
      "/etc/containers/registries.conf.d/a.conf",
      "/etc/containers/registries.conf.d/b.conf",
    ]);
  });

  it("reads the per-uid rootless directories for a uid above 0, not the rootful one", () => {
    const files = {
      "/etc/containers/registries.rootless.conf.d/1000/50.conf": shared("uid.io"),
      "/etc/containers/registries.rootless.conf.d/50.conf": shared("rootless.io"),
      "/etc/containers/registries.rootless.conf.d/40.conf": reg("rootless-40.io"),
      "/etc/containers/registries.rootful.conf.d/60.conf": reg("rootful.io"),
      "/home/u/.config/containers/registries.conf.d/40.conf": reg("user-40.io"),
    };
    const conf = loadNodeRegistriesConf(files, { uid: 1000, home: "/home/u" });
    expect(locations(conf)).toEqual(["uid.io", "user-40.io"]);
  });

  it("prefixes the root to /etc and /usr/share only, and XDG_CONFIG_HOME replaces $HOME/.config", () => {
    const files = {
      "/node/etc/containers/registries.conf": reg("etc.io"),
      "/etc/containers/registries.conf": reg("host.io"),
      "/xdg/containers/registries.conf.d/a.conf": reg("xdg.io"),
      "/root/.config/containers/registries.conf.d/b.conf": reg("home.io"),
    };
    const conf = loadNodeRegistriesConf(files, { root: "/node", xdgConfigHome: "/xdg" });
    expect(locations(conf)).toEqual(["etc.io", "xdg.io"]);
  });

  it("CONTAINERS_REGISTRIES_CONF is the only main file and turns the drop-ins off; the override still comes last", () => {
    const files = {
      "/etc/containers/registries.conf": reg("etc.io"),
      "/etc/containers/registries.conf.d/a.conf": reg("dropin.io"),
      "/env/main.conf": shared("env.io"),
      "/env/override.conf": shared("override.io"),
    };
    const env = {
      CONTAINERS_REGISTRIES_CONF: "/env/main.conf",
      CONTAINERS_REGISTRIES_CONF_OVERRIDE: "/env/override.conf",
    };
    expect(locations(loadNodeRegistriesConf(files, { env }))).toEqual(["override.io"]);
  });

  it("a missing named file fails with Go's open error, unwrapped", () => {
    const e = thrown(() =>
      loadNodeRegistriesConf({}, { env: { CONTAINERS_REGISTRIES_CONF_OVERRIDE: "/gone.conf" } }),
    );
    expect(e.code).toBe("NO_CONFIG_FILE");
    expect(e.message).toBe("open /gone.conf: no such file or directory");
  });

  it("wraps every error of one file with its name, not only the v1 rejection", () => {
    const e = thrown(() =>
      loadNodeRegistriesConf({
        "/etc/containers/registries.conf.d/a.conf": 'short-name-mode = "bad"\n',
      }),
    );
    expect(e.code).toBe("INVALID_SHORT_NAME_MODE");
    expect(e.message).toBe(
      'loading registries configuration "/etc/containers/registries.conf.d/a.conf": invalid short-name mode: "bad"',
    );
    const dir = thrown(() => loadNodeRegistriesConf({ "/etc/containers/registries.conf/": "" }));
    expect(dir.message).toBe(
      'loading registries configuration "/etc/containers/registries.conf": read /etc/containers/registries.conf: is a directory',
    );
  });

  it("a file where a drop-in directory is expected fails the listing", () => {
    const e = thrown(() => loadNodeRegistriesConf({ "/etc/containers/registries.conf.d": "" }));
    expect(e.message).toBe("readdirent /etc/containers/registries.conf.d: not a directory");
    const through = thrown(() => loadNodeRegistriesConf({ "/etc/containers": "" }));
    expect(through.message).toBe("open /etc/containers/registries.conf: not a directory");
  });

  it("refuses options it cannot follow, naming them", () => {
    expect(thrown(() => loadNodeRegistriesConf({}, { uid: 1000 })).key).toBe("home");
    expect(thrown(() => loadNodeRegistriesConf({}, { root: "node" })).key).toBe("root");
    expect(thrown(() => loadNodeRegistriesConf({}, { uid: -1 })).key).toBe("uid");
    expect(
      thrown(() => loadNodeRegistriesConf({}, { env: { CONTAINERS_REGISTRIES_CONF: "x.conf" } }))
        .key,
    ).toBe("env.CONTAINERS_REGISTRIES_CONF");
  });
});

describe("loadNodeRegistriesConf, 5.36 discovery", () => {
  const options: NodeRegistriesConfOptions = { containersImage: "5.36" };

  it("reads /etc and its registries.conf.d, then the user's drop-ins, nothing masked and no /usr/share", () => {
    const files = {
      "/usr/share/containers/registries.conf": reg("usr.io"),
      "/etc/containers/registries.conf": 'unqualified-search-registries = ["a.io"]\n',
      "/etc/containers/registries.conf.d/b.conf": shared("etc-b.io"),
      "/root/.config/containers/registries.conf.d/a.conf": shared("user-a.io"),
      "/etc/containers/registries.rootful.conf.d/a.conf": reg("rootful.io"),
    };
    const conf = loadNodeRegistriesConf(files, options);
    expect(locations(conf)).toEqual(["user-a.io"]);
    expect(conf.unqualifiedSearchRegistriesOrigin).toBe("/etc/containers/registries.conf");
  });

  it("lists every drop-in directory before reading any drop-in", () => {
    const e = thrown(() =>
      loadNodeRegistriesConf(
        {
          "/root/.config": "",
          "/etc/containers/registries.conf.d/a.conf": 'short-name-mode = "bad"\n',
        },
        options,
      ),
    );
    expect(e.message).toBe(
      "reading registries.conf.d: lstat /root/.config/containers/registries.conf.d: not a directory",
    );
  });

  it("the user's registries.conf, when it exists, replaces /etc and its drop-ins and ignores the environment", () => {
    const files = {
      "/etc/containers/registries.conf.d/a.conf": reg("etc.io"),
      "/root/.config/containers/registries.conf": reg("user.io"),
    };
    const conf = loadNodeRegistriesConf(files, {
      ...options,
      env: { CONTAINERS_REGISTRIES_CONF_OVERRIDE: "/gone.conf" },
    });
    expect(locations(conf)).toEqual(["user.io"]);
  });
});

describe("recorded 5.40 answers (Go, generated node trees)", () => {
  it("holds a spread of cases", () => {
    expect(recordedDiscovery.length).toBeGreaterThanOrEqual(40);
  });

  it.each(recordedDiscovery.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    expectGoAnswer(
      goShape(() => loadNodeRegistriesConf(c.files, c.options)),
      c.expect,
    );
  });
});

describe("recorded 5.36 answers (Go, generated node trees)", () => {
  it.each(recordedDiscovery536.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    expect(goShape(() => loadNodeRegistriesConf(c.files, c.options))).toEqual(c.expect);
  });
});
