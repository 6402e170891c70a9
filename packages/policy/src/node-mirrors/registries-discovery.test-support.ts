/**
 * The recorded 5.40 discovery answers of the Go code, and how a kubeimg
 * answer is compared with them.
 *
 * `testdata/registries-discovery-5.40.jsonl`: one case a line, `{ id,
 * files, options, expect }`. `files` is a node tree under `/node` (path →
 * text, `dir/` for a directory), `options` the `root`, `uid`, `home`,
 * `xdgConfigHome` and `env` given to `loadNodeRegistriesConf`, `expect` what
 * go.podman.io/image/v5 `sysregistriesv2.TryUpdatingCache` (with
 * go.podman.io/storage `pkg/configfile`) at e2c14667a598, the 5.40 line
 * podman vendors (no v5.40.0 tag source was available), answered with the
 * same tree on disk, `RootForImplicitAbsolutePaths` = `root`, the uid given
 * and `HOME`, `XDG_CONFIG_HOME` and `CONTAINERS_REGISTRIES_CONF(_OVERRIDE)`
 * set per case: `{ error }` (the error text) or the merged configuration
 * (registries, unqualified-search list and origin, credential helpers,
 * short-name mode, layer-store helper). Built with Go 1.19. The cases were
 * chosen from a run over generated trees (masked basenames, missing
 * directories, a file where a directory is expected, non-`.conf` files,
 * errors in one drop-in, v1 files, a missing override) in which kubeimg's
 * map and filesystem readers agreed with the Go code on every case.
 */
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { isNodeMirrorsError } from "./errors.js";
import type { NodeRegistriesConfOptions, RegistriesConf } from "./index.js";
import { V1_HINT } from "./registries-conf.js";

export interface Recorded {
  readonly id: string;
  readonly files: Readonly<Record<string, string>>;
  readonly options: NodeRegistriesConfOptions;
  readonly expect: { readonly error: string } | Readonly<Record<string, unknown>>;
}

/** go.podman.io/image/v5 at e2c14667a598 (the 5.40 line), `TryUpdatingCache`, on generated node trees. */
function readRecorded(name: string): readonly Recorded[] {
  return readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Recorded);
}

/** go.podman.io/image/v5 at e2c14667a598 (the 5.40 line), `TryUpdatingCache`, on generated node trees. */
export const recordedDiscovery: readonly Recorded[] = readRecorded(
  "registries-discovery-5.40.jsonl",
);

/**
 * github.com/containers/image/v5 v5.36.1 (f6ca2da), `TryUpdatingCache`, on
 * generated node trees that load (its errors are kubeimg's own wording
 * under 5.36): each combination of the user's file, the user's drop-ins
 * and /etc's drop-ins.
 */
export const recordedDiscovery536: readonly Recorded[] = readRecorded(
  "registries-discovery-5.36.jsonl",
);

/** The answer in the shape the Go program printed. */
export function goShape(load: () => RegistriesConf): unknown {
  try {
    const conf = load();
    return {
      registries: conf.registries.map((r) => ({
        prefix: r.prefix,
        location: r.location,
        insecure: r.insecure,
        blocked: r.blocked,
        mirrorByDigestOnly: r.mirrorByDigestOnly,
        mirrors: r.mirrors.map((m) => ({
          location: m.location,
          insecure: m.insecure,
          pullFromMirror: m.pullFromMirror,
        })),
      })),
      unqualifiedSearchRegistries: conf.unqualifiedSearchRegistries,
      unqualifiedSearchRegistriesOrigin: conf.unqualifiedSearchRegistriesOrigin,
      credentialHelpers: conf.credentialHelpers,
      shortNameMode: conf.shortNameMode,
      additionalLayerStoreAuthHelper: conf.additionalLayerStoreAuthHelper,
    };
  } catch (error) {
    if (!isNodeMirrorsError(error)) throw error;
    return { error: error.message.replace(V1_HINT, "") };
  }
}

/**
 * Go's answer, or, for a TOML syntax or type error (which kubeimg's reader
 * words its own way), Go's wrapper: the file and the class must agree.
 */
export function expectGoAnswer(got: unknown, want: Recorded["expect"]): void {
  const error = (want as { error?: string }).error;
  const toml =
    error === undefined ? null : /^loading registries configuration "[^"]*": toml: /.exec(error);
  if (toml !== null) {
    expect((got as { error?: string }).error?.startsWith(toml[0])).toBe(true);
    return;
  }
  expect(got).toEqual(want);
}
