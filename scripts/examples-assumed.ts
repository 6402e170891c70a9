/**
 * What the README examples assume, keyed by the name a block declares
 * (`declare const registry: string;`). Before a block runs, the examples
 * runner (scripts/run-examples.ts) defines each name it declares on
 * `globalThis`, so the block reads the value as pasted: transpiling erases
 * the `declare`.
 *
 * `value` is a JavaScript expression, evaluated in the block's scratch
 * project (it may `await import(...)` the installed packages). A value that
 * `needs` a real server reads it from `online` (`online.registry`, the
 * registry's host; `online.redisUrl`); `pnpm check:packages` runs such
 * blocks against a real registry and redis-server it starts (and the
 * integration project once more on the sources), the others offline. A
 * README block declaring a name missing here
 * fails the check: give the name a value here, or build it in the block.
 */
import { join } from "node:path";
import { repoRoot } from "./conformance/runner.js";

/** What a README block may assume from the machine it runs on. */
export type ExampleNeed = "registry" | "redis";

export interface AssumedValue {
  /** A JavaScript expression; may use `await` and, with `needs`, `online`. */
  readonly value: string;
  /** The real server the value points at: the block runs against one. */
  readonly needs?: ExampleNeed;
}

/** The servers' addresses handed to the runner, one entry per {@link ExampleNeed}. */
export interface OnlineValues {
  /** The registry's host (`127.0.0.1:PORT`), plain HTTP. */
  readonly registry?: string;
  /** `redis://127.0.0.1:PORT`. */
  readonly redisUrl?: string;
}

export const assumedValues: Readonly<Record<string, AssumedValue>> = {
  // packages/policy/README.md: kuik CRs, as in its first block
  mirrorsYaml: {
    value: JSON.stringify(
      'apiVersion: kuik.enix.io/v1alpha1\nkind: ClusterImageSetMirror\nmetadata: { name: all }\nspec:\n  filter: { include: [{ image: ".*" }] }\n  mirrors: [{ registry: harbor.example.com, path: /mirror }]\n',
    ),
  },
  // packages/cli/README.md: a directory of `kubeimg test` files that need no registry
  policyTests: { value: JSON.stringify(join(repoRoot, "examples/policy-tests/tests")) },
  // packages/registry/README.md
  registry: { needs: "registry", value: "online.registry" },
  pullSecrets: { value: "[]" },
  nodeKeyring: {
    value: '(await import("@kubeimg/core/keyring")).createDockerKeyring([])',
  },
  signal: { value: "new AbortController().signal" },
  // packages/redis/README.md
  redisUrl: { needs: "redis", value: "online.redisUrl" },
  registryChecker: {
    value:
      '(await import("@kubeimg/registry/adapters")).createAvailabilityChecker({ client: (await import("@kubeimg/registry/client")).createRegistryClient() })',
  },
  timers: {
    value:
      "({ now: () => performance.now(), setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle) })",
  },
};
