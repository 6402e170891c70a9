/**
 * A plain failing test (not only a failed hook) when the real registry is
 * missing, so a machine without it can never report the integration suite
 * as skipped-but-green.
 */

import { requireRegistryBinary } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";

describe("real registry", () => {
  it("is installed (Debian docker-registry, by scripts/setup.d/registry.sh)", () => {
    expect(() => requireRegistryBinary()).not.toThrow();
  });
});
