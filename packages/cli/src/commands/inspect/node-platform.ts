/**
 * The `--platform` option shared by `inspect` and `route --check`: a
 * containerd platform specifier for the node the answer is for. Without it,
 * `inspect` answers for a Linux node of this machine's CPU (Kubernetes nodes
 * run Linux); a one-part specifier (`arm64`, `linux`) is completed from that
 * same default, as containerd completes it from the machine it runs on.
 */
import {
  formatAllPlatform,
  type HostPlatform,
  type Platform,
  PlatformError,
  parsePlatform,
} from "@kubeimg/core/platform";
import { CliError } from "../../errors/cli-error.js";

/** Node's `process.arch` names in Go's spelling. */
const GO_ARCH: Readonly<Record<string, string>> = {
  x64: "amd64",
  arm64: "arm64",
  arm: "arm",
  ia32: "386",
  s390x: "s390x",
  ppc64: "ppc64le",
  riscv64: "riscv64",
  loong64: "loong64",
  mips: "mips",
  mipsel: "mipsle",
};

/** A Linux node with this machine's CPU: what `--platform` defaults to. */
export function defaultNodePlatform(): HostPlatform {
  const arch = Object.hasOwn(GO_ARCH, process.arch)
    ? (GO_ARCH[process.arch] as string)
    : process.arch;
  return {
    os: "linux",
    architecture: arch,
    variant: arch === "arm64" ? "v8" : arch === "arm" ? "v7" : "",
  };
}

/**
 * Returns the platform `--platform` names, or throws a `USAGE` error that
 * names the option, the value and the part of it that is wrong.
 */
export function nodePlatformOption(value: string): Platform {
  try {
    return parsePlatform(value, { host: defaultNodePlatform() });
  } catch (error) {
    if (error instanceof PlatformError) {
      throw new CliError(
        "USAGE",
        `--platform ${JSON.stringify(value)}: the ${error.part} part ${JSON.stringify(error.value)} is wrong: ${error.message}`,
        value,
      );
    }
    throw error;
  }
}

/** The platform as a specifier, with OS version and features when it has them. */
export function platformText(platform: Platform): string {
  return formatAllPlatform(platform);
}
