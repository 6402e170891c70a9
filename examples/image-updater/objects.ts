/**
 * Reading Flux image-automation objects from YAML: every `ImageRepository`
 * (only the fields this example needs) and every `ImagePolicy` (validated by
 * `@kubeimg/policy/tags` with Flux's CRD rules and defaults).
 */
import { describeYamlProblem, readYamlDocuments } from "@kubeimg/policy/objects";
import { type ImagePolicy, parseImagePolicy } from "@kubeimg/policy/tags";

/** The fields of a Flux `ImageRepository` the updater uses. */
export interface ImageRepository {
  readonly namespace: string;
  readonly name: string;
  /** `spec.image`, e.g. `ghcr.io/stefanprodan/podinfo`. */
  readonly image: string;
  /** `spec.exclusionList`: Go regexes of tags to drop (Flux default: `^.*\.sig$`). */
  readonly exclusionList: readonly string[] | undefined;
}

/** The objects of one or more YAML files. */
export interface FluxObjects {
  readonly repositories: readonly ImageRepository[];
  readonly policies: readonly ImagePolicy[];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Returns the Flux objects of a multi-document YAML text; other kinds are
 * ignored. Throws on invalid YAML or an invalid object, naming the document.
 */
export function readFluxObjects(text: string): FluxObjects {
  const repositories: ImageRepository[] = [];
  const policies: ImagePolicy[] = [];
  // Policy's bounded reader: a document whose aliases expand past its bound
  // is refused before any value is built.
  const read = readYamlDocuments(text);
  if (!read.ok) {
    const { problem } = read;
    throw new Error(
      problem.kind === "syntax"
        ? `document ${problem.document}: invalid YAML: ${problem.message}`
        : describeYamlProblem(problem),
    );
  }
  read.values.forEach((value, index) => {
    const object = record(value);
    const apiVersion = object?.apiVersion;
    if (typeof apiVersion !== "string" || !apiVersion.startsWith("image.toolkit.fluxcd.io/"))
      return;
    const metadata = record(object?.metadata);
    if (object?.kind === "ImagePolicy") {
      policies.push(parseImagePolicy(object));
    } else if (object?.kind === "ImageRepository") {
      const spec = record(object.spec);
      const image = spec?.image;
      if (typeof metadata?.name !== "string" || typeof image !== "string" || image === "") {
        throw new Error(`document ${index}: ImageRepository needs metadata.name and spec.image`);
      }
      const exclusion = spec?.exclusionList;
      repositories.push({
        namespace: typeof metadata.namespace === "string" ? metadata.namespace : "default",
        name: metadata.name,
        image,
        exclusionList: Array.isArray(exclusion) ? exclusion.map(String) : undefined,
      });
    }
  });
  return { repositories, policies };
}
