/**
 * Per-image operations on invalid images, invalid registries.conf files and
 * both, against answers recorded from containers/image v5.36.1 (`f6ca2da`):
 * `reference.ParseNormalizedNamed`, `sysregistriesv2.FindRegistry` and
 * `Registry.PullSourcesFromReference`, `shortnames.Resolve` (with and
 * without a caller's mode, no terminal) and `shortnames.ResolveLocally`, with
 * BurntSushi/toml v1.5.0 reading the files. Go's load errors carry the file
 * they came from (`loading registries configuration "F": …`); kubeimg puts
 * the file in `file` and words the rest the same, except TOML errors, which
 * its own parser words (same code, same file).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ciParseNamed, ciString } from "./containers-image-reference.js";
import { isNodeMirrorsError } from "./errors.js";
import {
  findRegistry,
  loadRegistriesConf,
  pullSources,
  resolveShortName,
  resolveShortNameLocally,
} from "./index.js";
import { normalizeImage, rewriteReference } from "./registries-lookup.js";

interface Recorded {
  readonly op: string;
  readonly image: string;
  readonly conf?: string | null;
  readonly dropIns?: Readonly<Record<string, string>>;
  readonly mode?: "enforcing" | "permissive" | "disabled" | "invalid";
  readonly forceDockerHub?: boolean;
  readonly prefix?: string;
  readonly location?: string;
  readonly note?: string;
  readonly want: { readonly ok?: unknown; readonly null?: boolean; readonly error?: string };
}

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/registries-error-order.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

function run(r: Recorded): unknown {
  const load = () =>
    loadRegistriesConf({
      conf: r.conf ?? null,
      containersImage: "5.36",
      ...(r.dropIns !== undefined ? { dropIns: r.dropIns } : {}),
    });
  const options = {
    ...(r.mode !== undefined ? { mode: r.mode } : {}),
    ...(r.forceDockerHub === true ? { forceDockerHub: true } : {}),
  };
  switch (r.op) {
    case "normalize":
      return ciString(normalizeImage(r.image));
    case "findRegistry":
      return findRegistry(load(), r.image);
    case "pullSources": {
      const result = pullSources(load, r.image);
      return {
        registry: result.registry,
        reference: result.reference,
        sources: result.sources.map(({ explain: _explain, ...source }) => source),
      };
    }
    case "rewrite":
      return rewriteReference(
        ciString(ciParseNamed(r.image)),
        r.prefix as string,
        r.location as string,
      );
    case "shortName": {
      const result = resolveShortName(load, r.image, options);
      return { candidates: result.candidates, description: result.description };
    }
    case "shortNameLocal":
      return resolveShortNameLocally(load, r.image, options);
    default:
      throw new Error(`unknown op ${r.op}`);
  }
}

const loadError = /^loading (?:drop-in )?registries configuration "([^"]*)": (.*)$/s;
const loadCodes = [
  "NO_CONFIG_FILE",
  "TOML_ERROR",
  "INVALID_REGISTRIES",
  "INVALID_CONFIG",
  "INVALID_SHORT_NAME_MODE",
  "INVALID_ALIAS",
];

describe("registries.conf per-image operations, recorded from containers/image v5.36.1", () => {
  it("has invalid images with invalid configs, for every operation", () => {
    const both = recorded.filter(
      (r) =>
        r.note !== undefined &&
        r.want.error !== undefined &&
        !loadError.test(r.want.error) &&
        r.conf !== "",
    );
    expect(new Set(both.map((r) => r.op))).toEqual(
      new Set(["pullSources", "shortName", "shortNameLocal"]),
    );
    expect(recorded.length).toBeGreaterThanOrEqual(40);
  });

  const titled = recorded.map((r) => ({
    ...r,
    title: `${r.op}${r.mode !== undefined ? ` mode=${r.mode}` : ""}${r.forceDockerHub === true ? " forceDockerHub" : ""} ${JSON.stringify(r.image.length > 60 ? `${r.image.slice(0, 60)}…` : r.image)}${r.note !== undefined ? ` with ${r.note}` : ""}`,
  }));

  it.each(titled)("$title", (r) => {
    const { error } = r.want;
    if (error === undefined) {
      expect(run(r)).toEqual(r.want.null === true ? null : r.want.ok);
      return;
    }
    let thrown: unknown;
    try {
      run(r);
    } catch (e) {
      thrown = e;
    }
    expect(isNodeMirrorsError(thrown), String(thrown)).toBe(true);
    if (!isNodeMirrorsError(thrown)) return;
    const load = loadError.exec(error);
    if (load === null) {
      expect(loadCodes).not.toContain(thrown.code);
      expect(thrown.message).toContain(error);
      return;
    }
    const [, file, text] = load as unknown as [string, string, string];
    expect(loadCodes).toContain(thrown.code);
    expect(thrown.file).toBe(file);
    if (text.startsWith("toml:")) expect(thrown.code).toBe("TOML_ERROR");
    else expect(thrown.message).toContain(text);
  });
});
