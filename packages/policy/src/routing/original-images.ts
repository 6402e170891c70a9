/**
 * The `kuik.enix.io/original-images` annotation: a JSON object from container
 * name (`init:<name>` for init containers) to the image as written. kuik
 * skips the containers listed there, so a Pod is routed once.
 */

/** The annotation kuik writes on every Pod it considers. */
export const ORIGINAL_IMAGES_ANNOTATION = "kuik.enix.io/original-images";

/** The annotation the kubelet puts on static-pod mirrors; kuik leaves those alone. */
export const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

/**
 * Returns the annotation's map as kuik reads it with Go's `json.Unmarshal`:
 * text that is not valid JSON, or JSON that is not an object, gives an empty
 * map; a member whose value is not a string is kept with the value `""`.
 *
 * For example `{"app":"nginx:1.25"}` gives `{ app: "nginx:1.25" }` and `not json` gives `{}`.
 */
export function readOriginalImages(text: string | undefined): Record<string, string> {
  // No prototype, keys defined: a container named `__proto__` is a key like
  // any other (assigning it on `{}` would set the prototype and lose it).
  const out = Object.create(null) as Record<string, string>;
  if (text === undefined) return out;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return out;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    setOriginalImage(out, key, typeof v === "string" ? v : "");
  }
  return out;
}

/**
 * Returns the key a container has in the annotation: its name, or
 * `init:<name>` for an init container.
 */
export function originalImagesKey(name: string, options: { init?: boolean } = {}): string {
  return options.init ? `init:${name}` : name;
}

/**
 * Records `image` under `key` in an original-images map as a plain data
 * property, so that any container name, `__proto__` included, is kept.
 */
export function setOriginalImage(map: Record<string, string>, key: string, image: string): void {
  Object.defineProperty(map, key, {
    value: image,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
