import { describe, expect, it } from "vitest";
import { readArgoApplication, readArgoImageUpdater } from "../argocd/objects.js";
import { selectArgoTag } from "../argocd/select.js";
import { isTagDialectError, type TagDialectError } from "../common/errors.js";
import { dialectObjectKind } from "../common/objects.js";
import { readKargoWarehouse } from "../kargo/objects.js";
import { selectKargoTag } from "../kargo/select.js";

const updater = () => ({
  apiVersion: "argocd-image-updater.argoproj.io/v1alpha1",
  kind: "ImageUpdater",
  metadata: { name: "app", namespace: "argocd" },
  spec: {
    commonUpdateSettings: { updateStrategy: "semver", pullSecret: "pullsecret:argocd/regcred" },
    writeBackConfig: { method: "git", gitConfig: { branch: "main" } },
    applicationRefs: [
      {
        namePattern: "app-*",
        labelSelectors: { matchLabels: { team: "a" } },
        commonUpdateSettings: { allowTags: "regexp:^1\\." },
        images: [
          {
            alias: "web",
            imageName: "ghcr.io/acme/app:~1",
            manifestTargets: { helm: { name: "image.repository", tag: "image.tag" } },
          },
          {
            alias: "newest",
            imageName: "ghcr.io/acme/app",
            commonUpdateSettings: { updateStrategy: "newest-build", forceUpdate: true },
          },
        ],
      },
    ],
  },
});

const application = () => ({
  apiVersion: "argoproj.io/v1alpha1",
  kind: "Application",
  metadata: {
    name: "app",
    namespace: "argocd",
    annotations: {
      "argocd-image-updater.argoproj.io/image-list": "web=ghcr.io/acme/app",
      "argocd-image-updater.argoproj.io/web.allow-tags": "regexp:^1",
      "notifications.argoproj.io/subscribe.on-sync": "slack",
    },
  },
  spec: { project: "default" },
});

const warehouse = () => ({
  apiVersion: "kargo.akuity.io/v1alpha1",
  kind: "Warehouse",
  metadata: { name: "app", namespace: "kargo-demo" },
  spec: {
    interval: "5m0s",
    subscriptions: [
      { git: { repoURL: "https://github.com/acme/app.git" } },
      {
        image: {
          repoURL: "ghcr.io/acme/app",
          constraint: "^1.0.0",
          strictSemvers: false,
          insecureSkipTLSVerify: true,
        },
      },
      { image: { repoURL: "ghcr.io/acme/app", imageSelectionStrategy: "Lexical" } },
    ],
  },
});

function thrown(f: () => unknown): TagDialectError {
  try {
    f();
  } catch (error) {
    if (isTagDialectError(error)) return error;
    throw error;
  }
  throw new Error("expected a TagDialectError");
}

describe("dialectObjectKind", () => {
  it("names the reader for each object, and nothing for the rest", () => {
    expect(dialectObjectKind(updater())).toBe("argocd-image-updater");
    expect(dialectObjectKind(application())).toBe("argocd-application");
    expect(dialectObjectKind(warehouse())).toBe("kargo-warehouse");
    const plain = application();
    plain.metadata.annotations = {
      "notifications.argoproj.io/subscribe.on-sync": "slack",
    } as never;
    expect(dialectObjectKind(plain)).toBeUndefined();
    expect(dialectObjectKind({ apiVersion: "kargo.akuity.io/v1beta1", kind: "Warehouse" })).toBe(
      undefined,
    );
    expect(
      dialectObjectKind({ apiVersion: "image.toolkit.fluxcd.io/v1", kind: "ImagePolicy" }),
    ).toBe(undefined);
    for (const junk of [null, 1, "ImageUpdater", [], { kind: "ImageUpdater" }]) {
      expect(dialectObjectKind(junk)).toBeUndefined();
    }
  });
});

describe("readArgoImageUpdater", () => {
  it("reads the first image with the settings of its three levels", () => {
    const r = readArgoImageUpdater(updater());
    expect(r).toEqual({
      config: {
        alias: "web",
        imageName: "ghcr.io/acme/app:~1",
        settings: {
          spec: { updateStrategy: "semver" },
          // The CRD defaults updateStrategy wherever commonUpdateSettings is present.
          applicationRef: { updateStrategy: "semver", allowTags: "regexp:^1\\." },
        },
      },
      source: "ImageUpdater argocd/app image web",
      image: "ghcr.io/acme/app:~1",
    });
    const tags = ["1.0.0", "1.4.2", "2.0.0", "0.9.0"].map((name) => ({ name }));
    expect(selectArgoTag(r.config, tags).tag).toBe("1.4.2");
  });

  it("reads the image an alias names", () => {
    const r = readArgoImageUpdater(updater(), { alias: "newest" });
    expect(r.config).toMatchObject({
      alias: "newest",
      settings: { image: { updateStrategy: "newest-build" } },
    });
    const missing = thrown(() => readArgoImageUpdater(updater(), { alias: "api" }));
    expect(missing.path).toBe("ImageUpdater.spec.applicationRefs");
    expect(missing.value).toBe("api");
  });

  it("refuses an unknown field with its path, or reports it, or drops it", () => {
    const typo = updater();
    (
      typo.spec.applicationRefs[0]?.images[1]?.commonUpdateSettings as Record<string, unknown>
    ).updateStrategi = "latest";
    const e = thrown(() => readArgoImageUpdater(typo, { at: "ImageUpdater[2]" }));
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.path).toBe(
      "ImageUpdater[2].spec.applicationRefs[0].images[1].commonUpdateSettings.updateStrategi",
    );
    expect(e.value).toBe("latest");
    expect(e.message).toContain("unknown field");
    const seen: string[] = [];
    const warned = readArgoImageUpdater(typo, {
      alias: "newest",
      unknownFields: "warn",
      onUnknownField: (p) => seen.push(p),
    });
    expect(seen).toEqual([
      "ImageUpdater.spec.applicationRefs[0].images[1].commonUpdateSettings.updateStrategi",
    ]);
    expect(warned.config).toMatchObject({ settings: { image: {} } });
    expect(readArgoImageUpdater(typo, { unknownFields: "ignore" }).source).toContain("web");
  });

  it("names the path and value of a field of the wrong shape", () => {
    const cases: [(u: ReturnType<typeof updater>) => void, string, unknown][] = [
      [
        (u) => ((u.spec as Record<string, unknown>).applicationRefs = []),
        ".spec.applicationRefs",
        [],
      ],
      [
        (u) => ((u.spec.applicationRefs[0] as Record<string, unknown>).images = "x"),
        ".spec.applicationRefs[0].images",
        "x",
      ],
      [
        (u) => delete imageOf(u.spec.applicationRefs as never, 0).imageName,
        ".spec.applicationRefs[0].images[0].imageName",
        undefined,
      ],
      [
        (u) => ((u.spec.applicationRefs[0]?.images[0] as Record<string, unknown>).alias = "a=b"),
        ".spec.applicationRefs[0].images[0].alias",
        "a=b",
      ],
      [
        (u) => ((u.spec as Record<string, unknown>).namespace = "argocd"),
        ".spec.namespace",
        "argocd",
      ],
      [
        (u) => ((u.spec.commonUpdateSettings as Record<string, unknown>).forceUpdate = "yes"),
        ".spec.commonUpdateSettings.forceUpdate",
        "yes",
      ],
      [
        (u) => ((u.spec.commonUpdateSettings as Record<string, unknown>).ignoreTags = "1.0"),
        ".spec.commonUpdateSettings.ignoreTags",
        "1.0",
      ],
      [(u) => ((u.metadata as Record<string, unknown>).name = 7), ".metadata.name", 7],
      [(u) => ((u as Record<string, unknown>).spec = null), ".spec", null],
      [(u) => ((u as Record<string, unknown>).__proto__x = 1), ".__proto__x", 1],
    ];
    for (const [edit, path, value] of cases) {
      const u = updater();
      edit(u);
      const e = thrown(() => readArgoImageUpdater(u));
      expect(e.path).toBe(`ImageUpdater${path}`);
      expect(e.value).toEqual(value);
    }
  });

  it("treats __proto__ as an unknown field, never as the object's prototype", () => {
    const u = JSON.parse(
      '{"apiVersion":"argocd-image-updater.argoproj.io/v1alpha1","kind":"ImageUpdater","spec":{"__proto__":{"x":1},"applicationRefs":[{"namePattern":"*","images":[{"alias":"a","imageName":"a"}]}]}}',
    );
    expect(thrown(() => readArgoImageUpdater(u)).path).toBe("ImageUpdater.spec.__proto__");
    const r = readArgoImageUpdater(u, { unknownFields: "ignore" });
    expect(r.source).toBe("ImageUpdater default/? image a");
  });
});

describe("readArgoApplication", () => {
  it("keeps the updater's annotations only", () => {
    const r = readArgoApplication(application());
    expect(r.source).toBe("Application argocd/app");
    expect(r.image).toBeUndefined();
    expect({ ...(r.config as { annotations: Record<string, string> }).annotations }).toEqual({
      "argocd-image-updater.argoproj.io/image-list": "web=ghcr.io/acme/app",
      "argocd-image-updater.argoproj.io/web.allow-tags": "regexp:^1",
    });
    const tags = ["1.0.0", "1.4.2", "2.0.0"].map((name) => ({ name }));
    expect(selectArgoTag(r.config, tags).tag).toBe("1.4.2");
  });

  it("refuses an annotation that is not a string", () => {
    const app = application();
    (app.metadata.annotations as Record<string, unknown>)[
      "argocd-image-updater.argoproj.io/web.force-update"
    ] = true;
    const e = thrown(() => readArgoApplication(app, { at: "Application[1]" }));
    expect(e.path).toBe(
      "Application[1].metadata.annotations.argocd-image-updater.argoproj.io/web.force-update",
    );
    expect(e.value).toBe(true);
  });
});

describe("readKargoWarehouse", () => {
  it("reads the first image subscription, TLS switch included", () => {
    const r = readKargoWarehouse(warehouse());
    expect(r.source).toBe("Warehouse kargo-demo/app subscription 1");
    expect(r.subscription).toEqual({
      repoURL: "ghcr.io/acme/app",
      constraint: "^1.0.0",
      strictSemvers: false,
      insecureSkipTLSVerify: true,
    });
    const tags = ["1.0", "1.2.0", "2.0.0"].map((name) => ({ name }));
    expect(selectKargoTag(r.subscription, tags).tag).toBe("1.2.0");
  });

  it("reads the subscription asked for, and refuses one that is not an image subscription", () => {
    expect(readKargoWarehouse(warehouse(), { subscription: 2 }).subscription).toEqual({
      repoURL: "ghcr.io/acme/app",
      imageSelectionStrategy: "Lexical",
    });
    expect(thrown(() => readKargoWarehouse(warehouse(), { subscription: 0 })).path).toBe(
      "Warehouse.spec.subscriptions[0]",
    );
    expect(thrown(() => readKargoWarehouse(warehouse(), { subscription: 9 })).path).toBe(
      "Warehouse.spec.subscriptions[9]",
    );
    const gitOnly = warehouse();
    gitOnly.spec.subscriptions = [gitOnly.spec.subscriptions[0] as never];
    expect(thrown(() => readKargoWarehouse(gitOnly)).message).toContain(
      "has no image subscription",
    );
  });

  it("refuses unknown fields and wrong shapes with path and value", () => {
    const typo = warehouse();
    (typo.spec.subscriptions[1]?.image as Record<string, unknown>).strictSemver = false;
    const e = thrown(() => readKargoWarehouse(typo, { at: "Warehouse[0]" }));
    expect(e.path).toBe("Warehouse[0].spec.subscriptions[1].image.strictSemver");
    const ignored = readKargoWarehouse(typo, { unknownFields: "ignore" });
    expect(Object.keys(ignored.subscription)).not.toContain("strictSemver");
    const bad = warehouse();
    (bad.spec.subscriptions[1]?.image as Record<string, unknown>).discoveryLimit = 2.5;
    expect(thrown(() => readKargoWarehouse(bad))).toMatchObject({
      path: "Warehouse.spec.subscriptions[1].image.discoveryLimit",
      value: 2.5,
    });
    const list = warehouse();
    (list.spec.subscriptions[1]?.image as Record<string, unknown>).allowTagsRegexes = [1];
    expect(thrown(() => readKargoWarehouse(list)).path).toBe(
      "Warehouse.spec.subscriptions[1].image.allowTagsRegexes",
    );
    const spec = warehouse();
    (spec.spec as Record<string, unknown>).subscriptions = {};
    expect(thrown(() => readKargoWarehouse(spec)).path).toBe("Warehouse.spec.subscriptions");
  });
});

describe("misspelt fields in the Argo CD and Kargo objects", () => {
  it("name the field probably meant", () => {
    const typo = updater();
    (
      typo.spec.applicationRefs[0]?.images[1]?.commonUpdateSettings as Record<string, unknown>
    ).updateStrateg = "latest";
    const argo = thrown(() => readArgoImageUpdater(typo));
    expect(argo).toMatchObject({ value: "latest", suggestion: "updateStrategy" });
    expect(argo.message).toContain('unknown field (did you mean "updateStrategy"?)');

    const kargo = warehouse();
    const image = kargo.spec.subscriptions[1]?.image as Record<string, unknown>;
    image.repoUrl = image.repoURL;
    delete image.repoURL;
    const e = thrown(() => readKargoWarehouse(kargo));
    expect(e).toMatchObject({
      path: "Warehouse.spec.subscriptions[1].image.repoUrl",
      value: "ghcr.io/acme/app",
      suggestion: "repoURL",
    });
    expect(e.message).toContain('did you mean "repoURL"?');

    const seen: [string, string | undefined][] = [];
    readArgoImageUpdater(typo, {
      alias: "newest",
      unknownFields: "warn",
      onUnknownField: (path, suggestion) => seen.push([path, suggestion]),
    });
    expect(seen[0]?.[1]).toBe("updateStrategy");
  });
});

/** The first image of application ref `n`. */
function imageOf(refs: Record<string, unknown>[], n: number): Record<string, unknown> {
  return ((refs[n] as Record<string, unknown>).images as Record<string, unknown>[])[0] as Record<
    string,
    unknown
  >;
}

describe("the pinned CRDs' field names and rules", () => {
  it("resets an outer strategy where a level's commonUpdateSettings leaves it out (the CRD default)", () => {
    const u = updater();
    u.spec.commonUpdateSettings = { updateStrategy: "newest-build" } as never;
    const r = readArgoImageUpdater(u);
    const tags = [
      { name: "1.0.0", created: "2024-02-01T00:00:00Z" },
      { name: "1.4.2", created: "2024-01-01T00:00:00Z" },
    ];
    // applicationRefs[0].commonUpdateSettings holds only allowTags: stored, it says semver.
    expect(selectArgoTag(r.config, tags).tag).toBe("1.4.2");
  });

  it("accepts every ImageUpdater field of v1.3.0 and checks its rules", () => {
    const u = updater() as unknown as Record<string, unknown>;
    const spec = u.spec as unknown as Record<string, unknown>;
    spec.imagesVerification = { enabled: false };
    spec.writeBackConfig = {
      method: "git:secret:argocd/git-creds",
      gitConfig: { branch: "main", pullRequest: { github: {} } },
    };
    const refs = spec.applicationRefs as Record<string, unknown>[];
    refs.unshift({ namePattern: "legacy-*", useAnnotations: true });
    const image = imageOf(refs, 1);
    image.manifestTargets = { plugin: { name: "IMAGE_NAME", tag: "IMAGE_TAG" } };
    image.imagesVerification = { cosignKey: { secretName: "cosign", key: "cosign.pub" } };
    // The annotation-reading ref is skipped: its images come from the Application.
    expect(readArgoImageUpdater(u).source).toBe("ImageUpdater argocd/app image web");
    const cases: [(x: Record<string, unknown>) => void, string][] = [
      [
        (x) => (x.manifestTargets = { helm: { name: "a" }, plugin: { name: "b" } }),
        ".manifestTargets",
      ],
      [(x) => (x.manifestTargets = { plugin: { tag: "t" } }), ".manifestTargets.plugin"],
      [(x) => (x.manifestTargets = { kustomize: {} }), ".manifestTargets.kustomize.name"],
      [(x) => (x.imagesVerification = { enabled: true }), ".imagesVerification.cosignKey"],
      [(x) => delete x.alias, ".alias"],
    ];
    for (const [edit, path] of cases) {
      const v = structuredClone(u) as typeof u;
      const refsV = (v.spec as unknown as Record<string, unknown>).applicationRefs as Record<
        string,
        unknown
      >[];
      edit(imageOf(refsV, 1));
      expect(thrown(() => readArgoImageUpdater(v)).path).toBe(
        `ImageUpdater.spec.applicationRefs[1].images[0]${path}`,
      );
    }
    const pr = structuredClone(u) as typeof u;
    (
      pr.spec as unknown as { writeBackConfig: { gitConfig: { pullRequest: unknown } } }
    ).writeBackConfig.gitConfig.pullRequest = {};
    expect(thrown(() => readArgoImageUpdater(pr)).path).toBe(
      "ImageUpdater.spec.writeBackConfig.gitConfig.pullRequest",
    );
    const only = updater() as unknown as Record<string, unknown>;
    (only.spec as unknown as Record<string, unknown>).applicationRefs = [
      { namePattern: "*", useAnnotations: true },
    ];
    expect(thrown(() => readArgoImageUpdater(only)).path).toBe(
      "ImageUpdater.spec.applicationRefs[0].useAnnotations",
    );
  });

  it("refuses an updater annotation v1.3.0 does not read, or one for an alias the list lacks", () => {
    const key = (k: string) => `argocd-image-updater.argoproj.io/${k}`;
    for (const bad of ["web.update-stratgy", "api.allow-tags", "platforms", "web.platform"]) {
      const app = application();
      (app.metadata.annotations as Record<string, string>)[key(bad)] = "x";
      const e = thrown(() => readArgoApplication(app));
      expect(e.path).toBe(`Application.metadata.annotations.${key(bad)}`);
      expect(e.message).toContain("unknown field");
    }
    const app = application();
    Object.assign(app.metadata.annotations, {
      [key("web.helm.image-tag")]: "image.tag",
      [key("update-strategy")]: "semver",
      [key("write-back-method")]: "git",
      [key("web.platforms")]: "linux/amd64",
    });
    expect(readArgoApplication(app).source).toBe("Application argocd/app");
  });

  it("reads Kargo's allowTagsRegexes and cacheByTag, and refuses the singular allowTagsRegex", () => {
    const w = warehouse();
    const image = w.spec.subscriptions[1]?.image as Record<string, unknown>;
    image.cacheByTag = true;
    image.allowTagsRegexes = ["^1\\."];
    const r = readKargoWarehouse(w);
    expect(r.subscription).toMatchObject({ cacheByTag: true, allowTagsRegexes: ["^1\\."] });
    expect(selectKargoTag(r.subscription, [{ name: "1.2.0" }, { name: "2.0.0" }]).tag).toBe(
      "1.2.0",
    );
    image.allowTagsRegex = ["^1"];
    expect(thrown(() => readKargoWarehouse(w)).path).toBe(
      "Warehouse.spec.subscriptions[1].image.allowTagsRegex",
    );
  });

  it("takes a generic subscription, and refuses a subscription with two kinds", () => {
    const w = warehouse();
    w.spec.subscriptions.unshift({ oci: { repoURL: "oci://ghcr.io/acme/charts" } } as never);
    expect(readKargoWarehouse(w).source).toBe("Warehouse kargo-demo/app subscription 2");
    const two = warehouse();
    two.spec.subscriptions[0] = { git: {}, image: {} } as never;
    expect(thrown(() => readKargoWarehouse(two)).path).toBe("Warehouse.spec.subscriptions[0]");
    const interval = warehouse();
    interval.spec.interval = "5 minutes";
    expect(thrown(() => readKargoWarehouse(interval)).path).toBe("Warehouse.spec.interval");
    const policy = warehouse() as { spec: Record<string, unknown> };
    policy.spec.freightCreationPolicy = "automatic";
    expect(thrown(() => readKargoWarehouse(policy)).path).toBe(
      "Warehouse.spec.freightCreationPolicy",
    );
  });
});
