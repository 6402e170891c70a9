/**
 * What one test file's cases run against: its resources, read once and
 * through the same loaders as `kubeimg tags`, `kubeimg route` and
 * `kubeimg route --node-config`, each piece only when a case needs it.
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import type { PlanPullInput } from "@kubeimg/policy/node-mirrors";

type NodeRuntimeConfig = PlanPullInput["node"];

import {
  type CompiledRouting,
  compileRouting,
  type KuikConfig,
  type RoutingResource,
} from "@kubeimg/policy/routing";
import type { ImagePolicy } from "@kubeimg/policy/tags";
import { loadConfigFile, loadRoutingFiles } from "../commands/route/load.js";
import { loadNodeConfig } from "../commands/route/node-config.js";
import {
  type FoundDialectObject,
  findDialectObjects,
  type LoadedArgo,
  type LoadedKargo,
  readArgoApplicationObject,
  readArgoUpdaterObject,
  readKargoWarehouseObject,
} from "../commands/tags/dialect-load.js";
import {
  type FluxImageObjects,
  type ImageRepositoryInfo,
  parseFluxImagePolicy,
  readFluxImageObjects,
} from "../commands/tags/load.js";
import type { CliIo } from "../io/io.js";
import type { TestFile } from "./test-file.js";

type Json = Record<string, unknown>;

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

function metaOf(value: unknown): { name: unknown; namespace: unknown } {
  const m = ((value as Json | undefined)?.metadata ?? {}) as Json;
  return { name: m.name, namespace: m.namespace ?? "default" };
}

/** Per test file: the paths it names, resolved, and each kind of object, read once. */
export class TestEnvironment {
  readonly #test: TestFile;
  readonly #io: CliIo;
  readonly #dir: string;
  readonly #note: (line: string) => void;
  #flux: Promise<FluxImageObjects> | undefined;
  readonly #dialect = new Map<string, Promise<FoundDialectObject[]>>();
  readonly #policies = new Map<string, Promise<LoadedPolicy>>();
  #routing: Promise<LoadedRouting> | undefined;
  #node: Promise<NodeRuntimeConfig> | undefined;

  constructor(test: TestFile, absolutePath: string, io: CliIo, note: (line: string) => void) {
    this.#test = test;
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
    const matches = (value: unknown) => {
      const m = metaOf(value);
      return m.name === name && m.namespace === namespace;
    };
    if (this.#test.resources.length === 0) {
      throw new PolicyRefError(`${ref}: the test file names no resources`);
    }
    if (kind === "ImagePolicy") {
      this.#flux ??= readFluxImageObjects(this.#resources(), this.#io, this.#loadOptions());
      const flux = await this.#flux;
      const found = flux.policies.find((p) => matches(p.value));
      if (found === undefined)
        throw this.#missing(
          ref,
          flux.policies.map((p) => p.value),
        );
      const policy = parseFluxImagePolicy(found, this.#loadOptions());
      const want = policy.spec.imageRepositoryRef;
      const repository =
        flux.repositories.find(
          (r) =>
            r.name === want.name && (r.namespace ?? "default") === (want.namespace ?? namespace),
        ) ?? flux.repositories.find((r) => r.name === want.name);
      return { dialect: "flux", policy, repository };
    }
    const objectKind =
      kind === "ImageUpdater"
        ? "argocd-image-updater"
        : kind === "Application"
          ? "argocd-application"
          : "kargo-warehouse";
    let objects = this.#dialect.get(objectKind);
    if (objects === undefined) {
      objects = findDialectObjects(this.#resources(), this.#io, objectKind);
      this.#dialect.set(objectKind, objects);
    }
    const all = await objects;
    const found = all.find((o) => matches(o.value));
    if (found === undefined)
      throw this.#missing(
        ref,
        all.map((o) => o.value),
      );
    const options = { unknownFields: "strict" as const, note: this.#note };
    if (kind === "Warehouse") {
      return { dialect: "kargo", loaded: readKargoWarehouseObject(found, subscription, options) };
    }
    return {
      dialect: "argocd",
      loaded:
        kind === "ImageUpdater"
          ? readArgoUpdaterObject(found, alias, options)
          : readArgoApplicationObject(found, options),
    };
  }

  #missing(ref: string, values: readonly unknown[]): PolicyRefError {
    const kind = ref.split("/")[0];
    const have = values.map((v) => {
      const m = metaOf(v);
      return `${kind}/${String(m.namespace)}/${String(m.name)}`;
    });
    return new PolicyRefError(
      `${JSON.stringify(ref)} is not in the resources (${have.length === 0 ? `no ${kind} found` : `found: ${have.join(", ")}`})`,
    );
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

  /** Returns the node's runtime configuration (`nodeConfig`). */
  node(): Promise<NodeRuntimeConfig> {
    const name = this.#test.nodeConfig;
    if (name === undefined) {
      return Promise.reject(new PolicyRefError("a pull case needs nodeConfig in the test file"));
    }
    this.#node ??= loadNodeConfig(this.path(name), this.#io);
    return this.#node;
  }
}

/** A case names something the file's resources lack; reported at the case's field. */
export class PolicyRefError extends Error {
  override readonly name = "PolicyRefError";
}
