/**
 * What a loaded `registries.conf` is (containers/image v5.36.1's
 * `V2RegistriesConf` after every drop-in): the types the loader, one file's
 * decoder and the pull-time lookup share.
 */
import type { NodeMirrorsWarning } from "./errors.js";

export type PullFromMirror = "" | "all" | "digest-only" | "tag-only";
/** @inline */
export type ShortNameMode = "enforcing" | "permissive" | "disabled";

/** A mirror, or the registry's own location.
 *
 * @inline
 */
export interface RegistryEndpoint {
  readonly location: string;
  readonly insecure: boolean;
  /** As written: `""`, `all`, `digest-only` or `tag-only`. */
  readonly pullFromMirror: string;
}

/** One `[[registry]]` after loading (a registry-level `pull-from-mirror` is refused). */
export interface RegistryEntry {
  readonly prefix: string;
  readonly location: string;
  readonly insecure: boolean;
  readonly blocked: boolean;
  readonly mirrorByDigestOnly: boolean;
  readonly mirrors: readonly RegistryEndpoint[];
}

/** @inline */
export interface ShortNameAlias {
  /** The normalized target, or `null` when a later file reset it with `""`. */
  readonly value: string | null;
  /** The file that set it. */
  readonly origin: string;
}

/** The effective configuration after the main file and every drop-in. */
export interface RegistriesConf {
  /** Sorted by prefix (byte order). */
  readonly registries: readonly RegistryEntry[];
  readonly unqualifiedSearchRegistries: readonly string[];
  /** The main file, or the last drop-in that set the search list. */
  readonly unqualifiedSearchRegistriesOrigin: string;
  readonly shortNameMode: ShortNameMode;
  readonly credentialHelpers: readonly string[];
  readonly additionalLayerStoreAuthHelper: string;
  readonly aliases: Readonly<Record<string, ShortNameAlias>>;
  /** Things containers/image accepts silently but ignores. */
  readonly warnings: readonly NodeMirrorsWarning[];
  /**
   * The files merged, in the order containers/image read them: the main
   * file (when one was read), the drop-ins, the override file.
   */
  readonly files: readonly string[];
}
