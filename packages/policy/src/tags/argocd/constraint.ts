/**
 * The version constraint Argo CD Image Updater reads from an image: the tag
 * part of `<alias>=<image>` (`NewFromIdentifier`).
 *
 * When the part after the first `=` parses as a Docker reference
 * (distribution's `ParseNormalizedNamed`), its tag is the constraint, also
 * when a digest follows; no tag, no constraint. Most constraints do not parse
 * (`^`, `~`, `<`, `>`, `*`, `|`, `,`, spaces), and then an older parser
 * decides:
 *
 * 1. drop the first `/`-separated part when it holds a `.` (a registry);
 * 2. with an `@`: the tag is what follows the last `:` before the `@`, if that
 *    `:` comes after the last `/`; otherwise there is none;
 * 3. without: everything after the first `:`.
 *
 * So `localhost:5000/app:^1.2` gives `5000/app:^1.2` (no `.` in `localhost`),
 * and `registry.example.com:5000/app:^1.2` gives `^1.2`.
 */
import { parseNormalizedNamed } from "@kubeimg/core/reference";

/** Returns the constraint of `image` (`""` when it has none). */
export function argoVersionConstraint(image: string): string {
  let parsedTag: string | undefined | null = null;
  try {
    parsedTag = parseNormalizedNamed(image).tag;
  } catch {
    parsedTag = null;
  }
  if (parsedTag !== null) return parsedTag ?? "";
  return legacyTag(image);
}

function legacyTag(image: string): string {
  let rest = image;
  const slash = rest.indexOf("/");
  if (slash >= 0 && rest.slice(0, slash).includes(".")) rest = rest.slice(slash + 1);
  const at = rest.indexOf("@");
  if (at >= 0) {
    const name = rest.slice(0, at);
    const colon = name.lastIndexOf(":");
    return colon > name.lastIndexOf("/") ? name.slice(colon + 1) : "";
  }
  const colon = rest.indexOf(":");
  return colon < 0 ? "" : rest.slice(colon + 1);
}
