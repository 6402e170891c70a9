/**
 * What one test file's cases run against: its resources, read once and
 * through the same loaders as `kubeimg tags`, `kubeimg route` and
 * `kubeimg route --node-config`, each piece only when a case needs it.
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import { isKubeimgError } from "@kubeimg/core";
import type { PlanPullInput } from "@kubeimg/policy/node-mirrors";

type NodeRuntimeConfig = PlanPullInput["node"];

import {
  type CompiledRouting,
  compileRouting,
  type KuikConfig,
  type RoutingResource,
} from "@kubeimg/policy/routing";
import type { ImagePolicy } from "@kubeimg/policy/tags";
import type { UpstreamChoice } from "../args/upstream.js";
import { loadConfigFile, loadRoutingFiles } from "../commands/route/load.js";
import { loadNodeConfig } from "../commands/route/node-config.js";
import type { LoadedArgo, LoadedKargo } from "../commands/tags/dialect-load.js";
import {
  type ImageRepositoryInfo,
  readTagObjectFiles,
  repositoryInfo,
} from "../commands/tags/load.js";
import { releaseOptionIn } from "../errors/describe.js";
import type { CliIo } from "../io/io.js";
import type { TestFile } from "./test-file.js";

/** The releases a test file's cases reproduce. */
export type TestUpstream = Pick<
  UpstreamChoice,
  "containerd" | "containers-image" | "kubelet" | "semver"
>;

/** The loaded policy a `select` case names. */
export type LoadedPolicy =
  | {
      readonly dialect: "flux";
      readonly policy: ImagePolicy;
      readonly repository: ImageRepositoryInfo | undefined;
    }
  | { readonly dialect: "argocd"; readonly loaded: LoadedArgo }
  | { readonly dialect: "kargo"; readonly loaded: LoadedKargo };

/** The kuik routing of a file's resources. */
export interface LoadedRouting {
  readonly resources: readonly RoutingResource[];
  readonly config: KuikConfig;
  readonly routing: CompiledRouting;
}

const POLICY_KINDS = ["ImagePolicy", "ImageUpdater", "Application", "Warehouse"] as const;

/** Per test file: the paths it names, resolved, and each kind of object, read once. */
export class TestEnvironment {
  readonly #test: TestFile;
  readonly #io: CliIo;
  readonly #dir: string;
  readonly #note: (line: string) => void;
  readonly #upstream: TestUpstream;
  readonly #policies = new Map<string, Promise<LoadedPolicy>>();
  #routing: Promise<LoadedRouting> | undefined;
  #node: Promise<NodeRuntimeConfig> | undefined;

  constructor(
    test: TestFile,
    absolutePath: string,
    io: CliIo,
    note: (line: string) => void,
    upstream: TestUpstream,
  ) {
    this.#test = test;
    this.#upstream = upstream;
    this.#io = io;
    this.#dir = resolve(absolutePath, "..");
    this.#note = note;
  }

  /** Returns `name` (relative to the test file) as the CLI's loaders take it: relative to the working directory when inside it. */
  path(name: string): string {
    const absolute = isAbsolute(name) ? name : join(this.#dir, name);
    const shown = relative(this.#io.cwd, absolute);
    return shown === "" ? "." : shown.startsWith("..") || isAbsolute(shown) ? absolute : shown;
  }

  get io(): CliIo {
    return this.#io;
  }

  #resources(): string[] {
    return this.#test.resources.map((r) => this.path(r));
  }

  #loadOptions() {
    return { unknownFields: "strict" as const, note: this.#note, verbose: false };
  }

  /**
   * Returns the policy `ref` (`KIND/NAMESPACE/NAME`) names, or a sentence
   * saying why none matches (the caller reports it at the case's field).
   */
  policy(
    ref: string,
    alias: string | undefined,
    subscription: number | undefined,
  ): Promise<LoadedPolicy> {
    const key = JSON.stringify([ref, alias, subscription]);
    let found = this.#policies.get(key);
    if (found === undefined) {
      found = this.#loadPolicy(ref, alias, subscription);
      this.#policies.set(key, found);
    }
    return found;
  }

  async #loadPolicy(
    ref: string,
    alias: string | undefined,
    subscription: number | undefined,
  ): Promise<LoadedPolicy> {
    const parts = ref.split("/");
    const [kind, namespace, name] = parts;
    if (
      parts.length !== 3 ||
      !(POLICY_KINDS as readonly string[]).includes(kind ?? "") ||
      namespace === "" ||
      name === ""
    ) {
      throw new PolicyRefError(
        `must be KIND/NAMESPACE/NAME with KIND one of ${POLICY_KINDS.join(", ")} (found ${JSON.stringify(ref)})`,
      );
    }
    if (this.#test.resources.length === 0) {
      throw new PolicyRefError(`${ref}: the test file names no resources`);
    }
    const named = (o: { kind: unknown; name?: string; namespace?: string }) =>
      o.kind === kind && o.name === name && (o.namespace ?? "default") === namespace;
    // Only the object named is read (with the alias or subscription the case gives).
    const { objects, skipped } = await readTagObjectFiles(
      this.#resources(),
      this.#io,
      this.#loadOptions(),
      {
        select: (o) => named(o) || (kind === "ImagePolicy" && o.kind === "ImageRepository"),
        ...(alias === undefined ? {} : { alias }),
        ...(subscription === undefined ? {} : { subscription }),
      },
    );
    const found = objects.find(named);
    if (found === undefined) {
      const have = skipped
        .filter((o) => o.kind === kind)
        .map((o) => `${kind}/${o.namespace ?? "default"}/${String(o.name)}`);
      throw new PolicyRefError(
        `${JSON.stringify(ref)} is not in the resources (${have.length === 0 ? `no ${kind} found` : `found: ${have.join(", ")}`})`,
      );
    }
    switch (found.kind) {
      case "ImagePolicy": {
        const policy = found.object;
        const want = policy.spec.imageRepositoryRef;
        const repositories = objects.flatMap((o) =>
          o.kind === "ImageRepository" ? [repositoryInfo(o.object)] : [],
        );
        const repository =
          repositories.find(
            (r) =>
              r.name === want.name && (r.namespace ?? "default") === (want.namespace ?? namespace),
          ) ?? repositories.find((r) => r.name === want.name);
        return { dialect: "flux", policy, repository };
      }
      case "Warehouse":
        return { dialect: "kargo", loaded: found.object };
      case "ImageUpdater":
      case "Application":
        return { dialect: "argocd", loaded: found.object };
      default:
        throw new PolicyRefError(`${JSON.stringify(ref)}: not a policy`);
    }
  }

  /** Returns the kuik routing of the resources (none needed: pull cases may have no CR). */
  routing(required: boolean): Promise<LoadedRouting> {
    this.#routing ??= this.#loadRouting();
    return this.#routing.then((r) => {
      if (required && r.resources.length === 0) {
        throw new PolicyRefError(
          "the resources hold no kuik.enix.io/v1alpha1 routing object for a route case",
        );
      }
      return r;
    });
  }

  async #loadRouting(): Promise<LoadedRouting> {
    const { kuikConfig } = this.#test;
    const config = await loadConfigFile(
      kuikConfig === undefined ? undefined : this.path(kuikConfig),
      this.#io,
      { unknownFields: "strict", note: this.#note },
    );
    const resources =
      this.#test.resources.length === 0
        ? []
        : await loadRoutingFiles(this.#resources(), this.#io, {
            lenient: false,
            unknownFields: "strict",
            note: this.#note,
            verbose: false,
            required: false,
          });
    const routing = compileRouting(resources, {
      config,
      discardAlternativeMode: "kuik",
      invalidResources: "skip",
    });
    for (const problem of routing.problems) {
      this.#note(`warning: ${this.#test.name}: kuik ignores a routing object: ${problem.message}`);
    }
    return { resources, config, routing };
  }

  /** Returns the node's runtime configuration (`nodeConfig`), read as the file's releases read it. */
  node(): Promise<NodeRuntimeConfig> {
    const name = this.#test.nodeConfig;
    if (name === undefined) {
      return Promise.reject(new PolicyRefError("a pull case needs nodeConfig in the test file"));
    }
    this.#node ??= loadNodeConfig(
      this.path(name),
      this.#io,
      this.#upstream["containers-image"],
      this.#upstream.containerd,
    ).catch((error: unknown) => {
      throw this.#nodeError(error);
    });
    return this.#node;
  }

  /**
   * A node configuration the release refuses, reported at the file's
   * `nodeConfig` with the code kept. The setting that avoids it is this
   * file's `upstream:`; `--upstream` only where the file names no release
   * (the file's wins).
   */
  #nodeError(error: unknown): unknown {
    if (!isKubeimgError(error)) return error;
    const test = this.#test;
    const option = releaseOptionIn(error.message);
    let message = error.message;
    if (option !== undefined) {
      const flag =
        test.upstream[option.name] === undefined
          ? ` (or --upstream ${option.name}=${option.release})`
          : "";
      message = message.replace(
        option.phrase,
        `upstream: { ${option.name}: "${option.release}" } in the test file${flag}`,
      );
    }
    return Object.assign(error, {
      message: `${test.name}:${test.lineOf(["nodeConfig"])}: nodeConfig: ${message}`,
    });
  }
}

/** A case names something the file's resources lack; reported at the case's field. */
export class PolicyRefError extends Error {
  override readonly name = "PolicyRefError";
}
