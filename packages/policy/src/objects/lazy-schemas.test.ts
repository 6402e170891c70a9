import { lazy } from "@kubeimg/core/internal";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { kuikConfigSchema } from "../routing/config-schema.js";
import { routingResourceSchema } from "../routing/resource-schema.js";
import { imagePolicySchema } from "../tags/flux/image-policy-schema.js";

const { lazySchema, once } = lazy;

describe("lazy schemas", () => {
  it("builds a schema on its first touch, once", () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.object({ name: z.string() });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: "a" })).toEqual({ name: "a" });
    expect(z.safeParse(schema, { name: 1 }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it("once calls its builder a single time", () => {
    let calls = 0;
    const get = once(() => ++calls);
    expect([get(), get()]).toEqual([1, 1]);
  });

  it("exported schemas parse, compose, list and check as zod schemas do", () => {
    expect(kuikConfigSchema.parse({}).routing.activeCheck.timeout).toBe("1s");
    const wrapped = z.object({ config: kuikConfigSchema, items: z.array(routingResourceSchema) });
    expect(wrapped.safeParse({ config: {}, items: [] }).success).toBe(true);
    expect(z.safeParse(imagePolicySchema, {}).success).toBe(false);
    expect(kuikConfigSchema instanceof z.ZodMiniObject).toBe(true);
    expect(Object.keys(kuikConfigSchema)).toEqual(Object.keys(z.object({})));
    expect("_zod" in routingResourceSchema).toBe(true);
  });
});
