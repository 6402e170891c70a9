import { describe, expect, it } from "vitest";
import { compileRouting } from "./compile.js";
import { originalImagesKey, readOriginalImages, setOriginalImage } from "./original-images.js";
import { planPodRouting } from "./plan-pod.js";

const routing = compileRouting([]);
const pod = (names: string[], annotations: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "apps", annotations },
  spec: { containers: names.map((name) => ({ name, image: "nginx:1.25" })) },
});

describe("kuik.enix.io/original-images and container names JavaScript gives meaning to", () => {
  it.each(["__proto__", "constructor", "prototype", "toString"])(
    "a container named %s is recorded",
    (name) => {
      const plan = planPodRouting(routing, pod(["web", name]));
      expect(JSON.parse(plan.originalImagesAnnotation as string)).toEqual(
        JSON.parse(`{"${name}":"nginx:1.25","web":"nginx:1.25"}`),
      );
      expect(Object.keys(JSON.parse(plan.originalImagesAnnotation as string))).toContain(name);
    },
  );

  it("an annotation already naming __proto__ marks that container processed and keeps it", () => {
    const plan = planPodRouting(
      routing,
      pod(["__proto__", "web"], { "kuik.enix.io/original-images": '{"__proto__":"nginx:1.24"}' }),
    );
    expect(plan.containers[0]).toMatchObject({
      container: "__proto__",
      skipReason: "ALREADY_PROCESSED",
    });
    expect(Object.keys(JSON.parse(plan.originalImagesAnnotation as string))).toEqual([
      "__proto__",
      "web",
    ]);
  });

  it("setOriginalImage records __proto__ as a key, not as the map's prototype", () => {
    const map = readOriginalImages(undefined);
    setOriginalImage(map, "__proto__", "nginx:1.27");
    expect(Object.keys(map)).toEqual(["__proto__"]);
    expect(JSON.stringify(map)).toBe('{"__proto__":"nginx:1.27"}');
  });

  it("originalImagesKey prefixes an init container's name", () => {
    expect(originalImagesKey("migrate", { init: true })).toBe("init:migrate");
    expect(originalImagesKey("migrate")).toBe("migrate");
  });

  it("readOriginalImages keeps a __proto__ member as a key", () => {
    const map = readOriginalImages('{"__proto__":"x","a":"y"}');
    expect(Object.keys(map)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(map)).toBeNull();
  });
});
