/**
 * The registry's tag lister and digest resolver satisfy the interfaces that
 * `@kubeimg/policy/tags` declares (checked by the type checker), so they plug
 * into `resolveImagePolicy` as they are.
 */
import type {
  DigestResolver,
  TagMetadataSource as PolicyTagMetadataSource,
  TagLister,
} from "@kubeimg/policy/tags";
import type {
  ImageDigestResolver,
  RepositoryTagLister,
  TagMetadataSource,
} from "@kubeimg/registry/adapters";
import { describe, expectTypeOf, it } from "vitest";

describe("registry adapters and policy interfaces", () => {
  it("are assignable", () => {
    expectTypeOf<RepositoryTagLister>().toExtend<TagLister>();
    expectTypeOf<ImageDigestResolver>().toExtend<DigestResolver>();
    expectTypeOf<TagMetadataSource>().toExtend<PolicyTagMetadataSource>();
    expectTypeOf<PolicyTagMetadataSource>().toExtend<TagMetadataSource>();
  });
});
