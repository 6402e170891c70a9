/**
 * One pass of an image-update checker: for every `ImagePolicy`, list its
 * repository's tags from the registry, select the latest tag exactly as Flux
 * does, reflect its digest per `digestReflectionPolicy`, and compute the
 * status Flux would write (`latestRef`, conditions).
 */

import type { DockerKeyring } from "@kubeimg/core/keyring";
import {
  type ImagePolicy,
  type ImagePolicyResolution,
  type ImagePolicyStatus,
  resolveImagePolicy,
  type TagLister,
} from "@kubeimg/policy/tags";
import { createDigestResolver, createTagLister } from "@kubeimg/registry/adapters";
import type { RegistryClient } from "@kubeimg/registry/client";
import type { FluxObjects, ImageRepository } from "./objects.js";

/** The outcome for one policy, as `kubectl get imagepolicy` shows it and more. */
export interface PolicyReport {
  readonly namespace: string;
  readonly name: string;
  readonly repository: ImageRepository | undefined;
  readonly resolution: ImagePolicyResolution;
}

/** What {@link checkImagePolicies} needs. */
export interface CheckOptions {
  readonly client: RegistryClient;
  readonly keyring?: DockerKeyring;
  /** Each policy's previous status (by `namespace/name`), for digest reflection and messages. */
  readonly previous?: ReadonlyMap<string, ImagePolicyStatus>;
  readonly signal?: AbortSignal;
}

/** Resolves every policy of `objects` against the registry, in file order. */
export async function checkImagePolicies(
  objects: FluxObjects,
  options: CheckOptions,
): Promise<PolicyReport[]> {
  const adapter = {
    client: options.client,
    ...(options.keyring ? { keyring: options.keyring } : {}),
  };
  const lister = createTagLister(adapter);
  const resolver = createDigestResolver(adapter);
  const reports: PolicyReport[] = [];
  for (const policy of objects.policies) {
    reports.push(await checkOne(policy, objects, lister, resolver, options));
  }
  return reports;
}

async function checkOne(
  policy: ImagePolicy,
  objects: FluxObjects,
  lister: TagLister,
  resolver: Parameters<typeof resolveImagePolicy>[0]["digestResolver"],
  options: CheckOptions,
): Promise<PolicyReport> {
  const namespace = policy.metadata.namespace ?? "default";
  const name = policy.metadata.name;
  const ref = policy.spec.imageRepositoryRef;
  const repository = objects.repositories.find(
    (r) => r.name === ref.name && r.namespace === (ref.namespace ?? namespace),
  );
  const status = options.previous?.get(`${namespace}/${name}`);
  if (repository === undefined) {
    const message = `referenced ImageRepository ${ref.namespace ?? namespace}/${ref.name} not found`;
    return {
      namespace,
      name,
      repository,
      resolution: {
        tag: undefined,
        tags: undefined,
        status: {
          ...status,
          conditions: [{ type: "Ready", status: "False", reason: "DependencyNotReady", message }],
        },
        requeueAfterMillis: undefined,
        error: new Error(message),
      },
    };
  }
  const resolution = await resolveImagePolicy({
    spec: policy.spec,
    image: repository.image,
    status,
    // The library drops what the ImageRepository's `exclusionList` excludes, as Flux's scan does.
    exclusionList: repository.exclusionList,
    tagLister: lister,
    digestResolver: resolver,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { namespace, name, repository, resolution };
}
