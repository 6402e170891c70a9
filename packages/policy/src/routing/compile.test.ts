/**
 * The generation cache (`compileRouting` with a {@link RoutingCompileCache})
 * against compiling from scratch: over random sequences of CR sets in which
 * objects come back as the same object, as a copy with the same generation,
 * or changed with a new generation, both route every image the same way.
 */

import { images, resource } from "@kubeimg/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CompiledRouting } from "./compile.js";
import { compileRouting, createRoutingCompileCache } from "./compile.js";
import { parseRoutingResource } from "./load.js";
import type { RoutingResource } from "./resource-schema.js";
import { safeRouteContainer } from "./route-outcome.js";

/** Up to four versions of each of four objects; a step picks one version of some of them. */
const versions = fc.tuple(
  ...Array.from({ length: 4 }, (_, i) => fc.array(resource(i), { minLength: 1, maxLength: 4 })),
);
const steps = fc.array(
  fc.array(fc.record({ object: fc.nat(3), version: fc.nat(3), copy: fc.boolean() }), {
    maxLength: 5,
  }),
  { minLength: 1, maxLength: 5 },
);

function routes(routing: CompiledRouting): string[] {
  return images.map((image) => {
    const r = safeRouteContainer(routing, {
      pod: { namespace: "apps", labels: { app: "web" }, annotations: {} },
      container: { name: "app", image, imagePullPolicy: "IfNotPresent" },
    });
    if (!r.success) return r.error.code;
    if (r.data.status === "skipped") return r.data.skipReason;
    return r.data.alternatives.map((a) => `${a.image} ${a.credentialSecret?.name}`).join(",");
  });
}

describe("compileRouting with a cache = without", () => {
  it("routes the same after any sequence of unchanged, copied and changed objects", () => {
    fc.assert(
      fc.property(versions, steps, (raw, sequence) => {
        // One parsed object per version; its generation is the version, its uid the object's.
        const parsed = raw.map((list, i) =>
          list.map((value, v) => {
            const r = value as { metadata: Record<string, unknown> };
            return () =>
              parseRoutingResource(
                { ...r, metadata: { ...r.metadata, uid: `uid-${i}`, generation: v + 1 } },
                { validation: "lenient" },
              );
          }),
        );
        const objects = parsed.map((list) => list.map((make) => make()));
        const cache = createRoutingCompileCache();
        for (const step of sequence) {
          const input: RoutingResource[] = [];
          for (const { object, version, copy } of step) {
            const v = version % (objects[object]?.length ?? 1);
            const same = objects[object]?.[v] as RoutingResource;
            input.push(copy ? (parsed[object]?.[v]?.() as RoutingResource) : same);
          }
          const skip = { invalidResources: "skip" } as const;
          expect(routes(compileRouting(input, { ...skip, cache }))).toEqual(
            routes(compileRouting(input, skip)),
          );
        }
      }),
      { numRuns: 150 },
    );
  });
});
