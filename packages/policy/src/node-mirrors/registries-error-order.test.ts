/**
 * Which error wins when both the image and registries.conf are invalid, per
 * operation, in containers/image v5.36.1's order: its docker transport parses
 * the image before `FindRegistry` reads the config (pull sources);
 * `shortnames.Resolve` reads the short-name mode from the config before it
 * parses the name (unless the caller sets the mode); `ResolveLocally` parses
 * the name first; `FindRegistry` reads the config and never validates the name.
 */
import { describe, expect, it } from "vitest";
import {
  findRegistry,
  loadRegistriesConf,
  pullSources,
  resolveShortName,
  resolveShortNameLocally,
} from "./index.js";

const invalidConfs = {
  "location with a scheme":
    '[[registry]]\nprefix = "example.com"\nlocation = "https://example.com"\n',
  "mirror with a scheme":
    '[[registry]]\nlocation = "a.io"\n[[registry.mirror]]\nlocation = "http://m.io"\n',
  "alias with an upper-case name": '[aliases]\n"Bad/Name" = "docker.io/library/x"\n',
  "alias to no reference": '[aliases]\n"x" = "not a ref"\n',
  "TOML syntax": "[[registry]\n",
};
const confCodes: Record<keyof typeof invalidConfs, string> = {
  "location with a scheme": "INVALID_REGISTRIES",
  "mirror with a scheme": "INVALID_REGISTRIES",
  "alias with an upper-case name": "INVALID_ALIAS",
  "alias to no reference": "INVALID_ALIAS",
  "TOML syntax": "TOML_ERROR",
};
const invalidImages = ["UPPER/x", "x:", "a.io/x@sha256:zz", "", "a.io/X"];

function codeOf(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error) {
    return (error as { code: string }).code;
  }
}

const cases = Object.keys(invalidConfs).flatMap((conf) =>
  invalidImages.map((image) => ({ conf: conf as keyof typeof invalidConfs, image })),
);

describe("an invalid image with an invalid registries.conf", () => {
  it.each(cases)("pullSources: the image's error ($conf, $image)", ({ conf, image }) => {
    const load = () => loadRegistriesConf({ conf: invalidConfs[conf] });
    expect(codeOf(() => pullSources(load, image))).toBe("INVALID_REFERENCE");
    // A valid image then meets the config's error.
    expect(codeOf(() => pullSources(load, "nginx"))).toBe(confCodes[conf]);
  });

  it("pullSources names the reference error as containers/image words it", () => {
    const load = () => loadRegistriesConf({ conf: invalidConfs["location with a scheme"] });
    expect(() => pullSources(load, "UPPER/x")).toThrow(
      "invalid reference format: repository name must be lowercase",
    );
  });

  it.each(cases)("findRegistry: the config's error ($conf, $image)", ({ conf, image }) => {
    expect(
      codeOf(() => findRegistry(loadRegistriesConf({ conf: invalidConfs[conf] }), image)),
    ).toBe(confCodes[conf]);
  });

  it.each(cases)(
    "shortName: the config's error, read for the mode ($conf, $image)",
    ({ conf, image }) => {
      const load = () => loadRegistriesConf({ conf: invalidConfs[conf] });
      expect(codeOf(() => resolveShortName(load, image))).toBe(confCodes[conf]);
    },
  );

  it.each(cases)(
    "shortNameLocal: a name that does not parse first ($conf, $image)",
    ({ conf, image }) => {
      const load = () => loadRegistriesConf({ conf: invalidConfs[conf] });
      // "UPPER/x" parses (UPPER is its domain, not a registry), so the config is read.
      const want = image === "UPPER/x" ? confCodes[conf] : "INVALID_INPUT";
      expect(codeOf(() => resolveShortNameLocally(load, image))).toBe(want);
    },
  );
});

describe("error texts containers/image v5.36.1 gives for an image", () => {
  const hex = "0123456789abcdef".repeat(4);
  const conf = () => loadRegistriesConf({ conf: 'unqualified-search-registries = ["quay.io"]\n' });

  it.each([
    [`a.io/x@sha256:${hex.toUpperCase()}`, "invalid checksum digest format"],
    [`a.io/x@sha512:${hex}`, "invalid checksum digest length"],
    [`a.io/x@foo:${hex.slice(0, 32)}`, "unsupported digest algorithm"],
  ])("names go-digest's rule for a bad digest (%s)", (image, text) => {
    expect(() => pullSources(conf, image)).toThrow(`${JSON.stringify(image)}: ${text}`);
    expect(() => resolveShortName(conf, image)).toThrow(
      `cannot parse input: ${JSON.stringify(image)}: ${text}`,
    );
    expect(() => resolveShortNameLocally(conf, image)).toThrow(
      `cannot parse input: ${JSON.stringify(image)}: ${text}`,
    );
  });

  it("names the input and the search registry a short name fails to complete with", () => {
    const lower = "invalid reference format: repository name must be lowercase";
    expect(() => resolveShortName(conf, "UPPER/x")).toThrow(
      `creating reference with unqualified-search registry "quay.io": ${lower}`,
    );
    expect(() => resolveShortNameLocally(conf, "UPPER/x")).toThrow(
      `"UPPER/x": creating reference with unqualified-search registry "localhost": ${lower}`,
    );
    expect(() => resolveShortNameLocally(conf, "UPPER/x", { forceDockerHub: true })).toThrow(
      `creating reference with unqualified-search registry "docker.io": ${lower}`,
    );
    // Podman's Docker-compatible path normalizes the name itself.
    expect(() => resolveShortName(conf, "UPPER/x", { forceDockerHub: true })).toThrow(
      `cannot normalize input: "UPPER/x": ${lower}`,
    );
  });
});
