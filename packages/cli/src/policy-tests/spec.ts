/**
 * The `kubeimg test` file format (`kubeimg.dev/v1alpha1` `PolicyTest`) as
 * one table of fields: the validator walks it, and the published JSON
 * Schema is generated from it, so the two cannot drift apart.
 */
import { type UpstreamName, upstreamReleases } from "../args/upstream.js";

/** One field of the format. */
export type FieldSpec =
  | { readonly type: "string"; readonly doc: string; readonly enum?: readonly string[] }
  | { readonly type: "boolean"; readonly doc: string; readonly const?: true }
  | { readonly type: "integer"; readonly doc: string; readonly minimum: number }
  | { readonly type: "array"; readonly doc: string; readonly items: FieldSpec }
  | { readonly type: "map"; readonly doc: string; readonly values: FieldSpec }
  /** A case: a name and exactly one of {@link CASE_KINDS}, checked against {@link caseSpec}. */
  | { readonly type: "case"; readonly doc: string }
  | ObjectSpec;

/** An object whose keys are all known (an unknown key is refused). */
export interface ObjectSpec {
  readonly type: "object";
  readonly doc: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  readonly required?: readonly string[];
}

/** The kinds of case, each the key that holds its input. */
export const CASE_KINDS = ["select", "route", "pull", "pullCheck"] as const;

/** One of {@link CASE_KINDS}. */
export type CaseKind = (typeof CASE_KINDS)[number];

const str = (doc: string): FieldSpec => ({ type: "string", doc });
const strings = (doc: string): FieldSpec => ({ type: "array", doc, items: str("") });
const bool = (doc: string): FieldSpec => ({ type: "boolean", doc });
const labels = (doc: string): FieldSpec => ({ type: "map", doc, values: str("") });

const tagMetadata: ObjectSpec = {
  type: "object",
  doc: "What the registry knows of one tag's image, for newest-build, digest and platform strategies.",
  fields: {
    created: str("the image's creation time, RFC 3339 (Argo CD newest-build, Kargo NewestBuild)"),
    digest: str("the tag's digest, sha256:…"),
    platforms: strings("the platforms of the tag's image index, such as linux/amd64"),
  },
};

const podFields = {
  namespace: str("the Pod's namespace (default: the Pod manifest's, else default)"),
  image: str("the container's image, as written"),
  pullPolicy: {
    type: "string",
    doc: "the container's imagePullPolicy (default: what Kubernetes defaults to)",
    enum: ["Always", "IfNotPresent", "Never"],
  },
  container: str("the container's name (default: app, or the Pod manifest's first container)"),
  labels: labels("the Pod's labels"),
  annotations: labels("the Pod's annotations"),
  pod: str(
    "a Pod manifest (relative to the test file) whose metadata, and container `container`, are used",
  ),
  unavailable: strings(
    "alternatives that do not answer a probe (default: every alternative answers)",
  ),
} satisfies Record<string, FieldSpec>;

const selectCase: ObjectSpec = {
  type: "object",
  doc: "Which tag a policy picks from a tag list.",
  required: ["policy"],
  fields: {
    policy: str(
      "KIND/NAMESPACE/NAME of an ImagePolicy, ImageUpdater, Application or Warehouse in the resources",
    ),
    image: str("Argo CD: the ImageUpdater image alias (default: the first)"),
    subscription: { type: "integer", doc: "Kargo: the Warehouse subscription index", minimum: 0 },
    tags: strings("the repository's tags"),
    tagsFile: str("a tags file relative to the test file, as `kubeimg tags --tags-file` reads"),
    metadata: {
      type: "map",
      doc: "per tag: its build date, digest and platforms",
      values: tagMetadata,
    },
    registry: bool("list the tags from the live registry instead (refused by --offline)"),
  },
};

const routeCase: ObjectSpec = {
  type: "object",
  doc: "What kube-image-keeper's webhook does to a container.",
  fields: podFields,
};

const pullCase: ObjectSpec = {
  type: "object",
  doc: "The whole path of a pull: kuik's alternatives, then the node's registry endpoints.",
  fields: podFields,
};

const pullCheckCase: ObjectSpec = {
  type: "object",
  doc: "Whether the kubelet makes a pod pull an image already on the node (KEP-2535).",
  required: ["image"],
  fields: {
    image: str("the container's image, as written in the pod"),
    imageRef: str("the runtime's image ID for it; empty or absent: not on the node"),
    kubeletDir: str(
      "a kubelet root directory holding image_manager/ (relative to the test file); absent: no records",
    ),
    secrets: strings("the pod's pull secrets, NAMESPACE/NAME/UID/HASH"),
    serviceAccount: str("the pod's service account, NAMESPACE/NAME/UID"),
    policy: {
      type: "string",
      doc: "imagePullCredentialsVerificationPolicy (default: NeverVerifyPreloadedImages)",
      enum: [
        "NeverVerify",
        "NeverVerifyPreloadedImages",
        "NeverVerifyAllowlistedImages",
        "AlwaysVerify",
      ],
    },
    allowlist: strings("preloadedImagesVerificationAllowlist"),
    allowlistMatching: {
      type: "string",
      doc: "v1.35 (the raw image string) or v1.36 (the normalized name); default: as the kubelet release (upstream.kubelet) matches",
      enum: ["v1.35", "v1.36"],
    },
  },
};

const expectations: Record<CaseKind, ObjectSpec> = {
  select: {
    type: "object",
    doc: "The expected pick: a tag, none, or an error code.",
    fields: {
      tag: str("the tag picked"),
      none: { type: "boolean", doc: "nothing is picked (no tag passes the policy)", const: true },
      error: str("the outcome's code, such as NO_MATCHING_VERSION or INVALID_CONSTRAINT"),
    },
  },
  route: {
    type: "object",
    doc: "The expected image of the container, and optionally the whole ordered list.",
    fields: {
      image: str("the image the container ends up with"),
      alternatives: strings("every alternative, in the webhook's order"),
    },
  },
  pull: {
    type: "object",
    doc: "The expected registry endpoints of the image the node pulls.",
    fields: {
      image: str("the image the node pulls (after kuik's rewrite)"),
      endpoints: strings("the endpoints the runtime tries, in order"),
    },
  },
  pullCheck: {
    type: "object",
    doc: "The expected decision.",
    fields: {
      mustPull: bool("whether the kubelet pulls"),
      reason: str(
        "credentialPolicyAllowed | credentialRecordFound | mustAuthenticate | error, or none when not on the node",
      ),
    },
  },
};

const caseInputs: Record<CaseKind, ObjectSpec> = {
  select: selectCase,
  route: routeCase,
  pull: pullCase,
  pullCheck: pullCheckCase,
};

/** Built once per kind, on first use: each case of a file is checked against one. */
const caseSpecs = /*#__PURE__*/ new Map<CaseKind, ObjectSpec>();

/** The fields of a case of `kind`: its name, its input, its expectation. */
export function caseSpec(kind: CaseKind): ObjectSpec {
  let spec = caseSpecs.get(kind);
  if (spec === undefined) {
    spec = buildCaseSpec(kind);
    caseSpecs.set(kind, spec);
  }
  return spec;
}

function buildCaseSpec(kind: CaseKind): ObjectSpec {
  return {
    type: "object",
    doc: `A ${kind} case.`,
    required: ["name", kind],
    fields: {
      name: str("shown in the output; --run matches it"),
      [kind]: caseInputs[kind],
      expect: expectations[kind],
    },
  };
}

/**
 * The upstreams whose release changes a case's answer, as the matching
 * command reads them: containerd and containers/image for a pull case's node
 * configuration (`kubeimg route --node-config`), the kubelet for a pullCheck
 * case (`kubeimg pull-check`), Masterminds/semver for a Flux select case
 * (`kubeimg tags`). Route cases probe no registry, so no platforms release
 * applies.
 */
export const POLICY_TEST_UPSTREAMS = Object.freeze([
  "containerd",
  "containers-image",
  "kubelet",
  "semver",
] as const satisfies readonly UpstreamName[]);

const UPSTREAM_DOCS: Record<(typeof POLICY_TEST_UPSTREAMS)[number], string> = {
  containerd: "the containerd release reading a hosts root (pull cases)",
  "containers-image": "the containers/image release reading a registries.conf (pull cases)",
  kubelet: "the kubelet release deciding pullCheck cases",
  semver: "the Masterminds/semver release of Flux's image-reflector-controller (Flux select cases)",
};

const upstreamSpec: ObjectSpec = {
  type: "object",
  doc: "The upstream releases this file's cluster runs, as --upstream NAME=VERSION; a name given here wins over the flag for this file (default: the flag's, else the newest).",
  fields: Object.fromEntries(
    POLICY_TEST_UPSTREAMS.map((name) => [
      name,
      { type: "string", doc: UPSTREAM_DOCS[name], enum: upstreamReleases(name) },
    ]),
  ),
};

/** Every field a case may have, whatever its kind (for "did you mean"). */
export const ANY_CASE_FIELDS: readonly string[] = ["name", ...CASE_KINDS, "expect"];

/** The top level of a test file; `cases` is checked case by case. */
export const TEST_FILE_SPEC: ObjectSpec = {
  type: "object",
  doc: "A kubeimg policy test file.",
  required: ["apiVersion", "kind", "cases"],
  fields: {
    apiVersion: { type: "string", doc: "kubeimg.dev/v1alpha1", enum: ["kubeimg.dev/v1alpha1"] },
    kind: { type: "string", doc: "PolicyTest", enum: ["PolicyTest"] },
    metadata: {
      type: "object",
      doc: "About the test file.",
      fields: { name: str("shown in the output (default: the file name)") },
    },
    resources: strings(
      "files or folders, relative to this file: Flux, Argo CD, Kargo and kuik objects",
    ),
    kuikConfig: str("kube-image-keeper's operator configuration YAML, relative to this file"),
    nodeConfig: str(
      "a containerd hosts root (certs.d) or a registries.conf (drop-ins from FILE.d), relative to this file",
    ),
    upstream: upstreamSpec,
    cases: {
      type: "array",
      doc: "The cases, run in order; each has a name and exactly one of select, route, pull, pullCheck.",
      items: { type: "case", doc: "" },
    },
  },
};

type Schema = Record<string, unknown>;

function schemaOf(spec: FieldSpec): Schema {
  const doc = spec.doc === "" ? {} : { description: spec.doc };
  switch (spec.type) {
    case "string":
      return { type: "string", ...doc, ...(spec.enum ? { enum: [...spec.enum] } : {}) };
    case "boolean":
      return { type: "boolean", ...doc, ...(spec.const ? { const: true } : {}) };
    case "integer":
      return { type: "integer", ...doc, minimum: spec.minimum };
    case "array":
      return { type: "array", ...doc, items: schemaOf(spec.items) };
    case "map":
      return { type: "object", ...doc, additionalProperties: schemaOf(spec.values) };
    case "case":
      return { ...doc, oneOf: CASE_KINDS.map((kind) => schemaOf(caseSpec(kind))) };
    case "object":
      return {
        type: "object",
        ...doc,
        properties: Object.fromEntries(
          Object.entries(spec.fields).map(([k, f]) => [k, schemaOf(f)]),
        ),
        ...(spec.required ? { required: [...spec.required] } : {}),
        additionalProperties: false,
      };
  }
}

/**
 * Returns the JSON Schema (draft 2020-12) of the format, as published in
 * `@kubeimg/cli/policy-test.schema.json`.
 */
export function policyTestJsonSchema(): Schema {
  const top = schemaOf(TEST_FILE_SPEC);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://kubeimg.dev/schemas/policy-test.schema.json",
    title: "kubeimg PolicyTest",
    ...top,
  };
}
