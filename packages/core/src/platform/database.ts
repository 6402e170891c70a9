/**
 * What containerd knows about operating systems and architectures: the
 * names Go's toolchain uses (`GOOS`, `GOARCH`), and the aliases other tools
 * write for the same CPU (`x86_64`, `aarch64`, `armhf`, …).
 *
 * Mirrors `database.go` of containerd/platforms v1.0.0-rc.4.
 *
 * @module
 */
import { ToLower } from "../internal/strings.js";

/** Go's `GOOS` values containerd recognizes in a one-part specifier such as `linux`. */
const KNOWN_OS: ReadonlySet<string> = new Set([
  "aix",
  "android",
  "darwin",
  "dragonfly",
  "freebsd",
  "hurd",
  "illumos",
  "ios",
  "js",
  "linux",
  "nacl",
  "netbsd",
  "openbsd",
  "plan9",
  "solaris",
  "windows",
  "zos",
]);

/** Go's `GOARCH` values containerd recognizes in a one-part specifier such as `arm64`. */
const KNOWN_ARCH: ReadonlySet<string> = new Set([
  "386",
  "amd64",
  "amd64p32",
  "arm",
  "armbe",
  "arm64",
  "arm64be",
  "ppc64",
  "ppc64le",
  "loong64",
  "mips",
  "mipsle",
  "mips64",
  "mips64le",
  "mips64p32",
  "mips64p32le",
  "ppc",
  "riscv",
  "riscv64",
  "s390",
  "s390x",
  "sparc",
  "sparc64",
  "wasm",
]);

/**
 * Returns true when `os` is one of Go's `GOOS` names (already lower-case).
 * Mirrors isKnownOS.
 */
export function isKnownOS(os: string): boolean {
  return KNOWN_OS.has(os);
}

/**
 * Returns true when `arch` is one of Go's `GOARCH` names (already normalized).
 * Mirrors isKnownArch.
 */
export function isKnownArch(arch: string): boolean {
  return KNOWN_ARCH.has(arch);
}

/**
 * Returns the OS name lower-cased (Go's `strings.ToLower`), with `macos`
 * read as `darwin`; an empty name becomes `hostOS`, or stays empty when no
 * host is known. Mirrors normalizeOS.
 */
export function normalizeOS(os: string, hostOS: string | undefined): string {
  if (os === "") return hostOS ?? "";
  const lower = ToLower(os);
  return lower === "macos" ? "darwin" : lower;
}

/**
 * Returns the architecture and variant in containerd's canonical spelling:
 * both lower-cased, then the aliases of each CPU family folded together (the
 * table in the module doc of {@link normalizePlatform}). Mirrors normalizeArch.
 */
export function normalizeArch(architecture: string, variant: string): readonly [string, string] {
  return normalizeLowerArch(ToLower(architecture), ToLower(variant));
}

/** {@link normalizeArch} for an architecture and variant already lower-cased. */
export function normalizeLowerArch(arch: string, variant: string): readonly [string, string] {
  let v = variant;
  switch (arch) {
    case "i386":
      return ["386", ""];
    case "x86_64":
    case "x86-64":
    case "amd64":
      return ["amd64", v === "v1" ? "" : v];
    case "aarch64":
    case "arm64":
      if (v === "8" || v === "v8" || v === "v8.0") v = "";
      else if (v === "9" || v === "9.0" || v === "v9.0") v = "v9";
      return ["arm64", v];
    case "armhf":
      return ["arm", "v7"];
    case "armel":
      return ["arm", "v6"];
    case "arm":
      if (v === "" || v === "7") v = "v7";
      else if (v === "5" || v === "6" || v === "8") v = `v${v}`;
      return ["arm", v];
    default:
      return [arch, v];
  }
}
