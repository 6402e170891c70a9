/**
 * The shapes nearly every Pod spec's `image:` takes, read in one pass for
 * {@link parseNormalizedNamed}; anything else goes to the exact ladder of
 * `parse.ts`, which also reports every error.
 *
 * ```ebnf
 * common      := head [ ":" port "/" remote | "/" remote ] [ ":" tag ] [ "@sha256:" hex64 ]
 * head        := /[a-z0-9]+/ { ( "." | /-+/ ) /[a-z0-9]+/ }
 * port        := /[0-9]+/
 * remote      := path-component { "/" path-component }   ; as in grammar.ts
 * hex64       := /[0-9a-f]{64}/
 * ```
 *
 * Why this is the same answer as the ladder's, shape by shape:
 *
 * - `head` uses only characters that a host name and a path component have
 *   in common, with the rules both impose (no empty label, no leading or
 *   trailing separator, `.` alone, `-` in runs), so it is valid as either,
 *   and it has no upper case.
 * - `head:port/…` is always a registry, never Docker Hub (whose domain has no
 *   port). `head/…` is a registry when `head` contains `.` or is
 *   `localhost`, and then Docker Hub when it is `docker.io` or
 *   `index.docker.io`; otherwise `head` is the first component of a Hub path.
 *   A lone `head` is a Hub `library/` name, except a 64-hex one, an image ID
 *   the ladder must refuse.
 * - The only digest read here is `sha256` with 64 lower-case hex digits,
 *   which go-digest accepts; other algorithms and every check that can fail
 *   after the grammar (path over 255) are left to the ladder.
 *
 * A property test checks this function against the ladder on generated
 * references and near misses; the conformance vectors go through both.
 *
 * @module
 */
import { Char, CharClass, classes, PATH_MAX_LENGTH, TAG_MAX_LENGTH } from "./grammar.js";
import { DEFAULT_DOMAIN, isHubDomain, OFFICIAL_REPO_PREFIX } from "./normalize.js";
import { type NamedReference, namedReference } from "./reference.js";

/** What came before the current character of a path component. */
enum Previous {
  /** The start of a component: an alphanumeric must come. */
  Start,
  Alphanumeric,
  Dot,
  Dash,
  Underscore,
  TwoUnderscores,
}

/** Lengths the shapes are checked against (an enum, so that they compile to literals). */
enum Length {
  /** `localhost` */
  Localhost = 9,
  /** An image ID, 64 hex digits, which is never a repository name. */
  Identifier = 64,
  /** `@sha256:` */
  Sha256Prefix = 8,
  /** `@sha256:` and 64 hex digits. */
  Sha256Suffix = 72,
}

const LOCALHOST = "localhost";

const HUB_SLASH = `${DEFAULT_DOMAIN}/`;
const HUB_LIBRARY_SLASH = HUB_SLASH + OFFICIAL_REPO_PREFIX;

/**
 * Returns what `parseNormalizedNamed(s)` returns when `s` has one of the
 * common shapes of the module doc, or `undefined` when `s` needs the exact
 * ladder (rare shapes, and every invalid reference).
 */
export const parseCommonShape: (s: string) => NamedReference | undefined =
  /* @__PURE__ */ commonShapeParser();

/**
 * Builds {@link parseCommonShape} as a closure over the class table. The
 * optimizing compiler treats a closed-over `const` as the constant it is; a
 * module-level one is a mutable `var` once bundled, reloaded and rechecked
 * on every use (about 4% of a parse).
 */
function commonShapeParser(): (s: string) => NamedReference | undefined {
  const table = classes();
  return (s) => {
    const end = s.length;
    if (end === 0) return undefined;

    // The head: [a-z0-9] runs joined by "." or runs of "-".
    let i = 0;
    let c = 0;
    let previous: Previous = Previous.Start;
    let dotted = false;
    for (; i < end; i++) {
      c = s.charCodeAt(i);
      const bits = table[c] as number;
      if ((bits & CharClass.LowerAlphanumeric) !== 0) {
        previous = Previous.Alphanumeric;
        continue;
      }
      if (c === Char.Dot) {
        if (previous !== Previous.Alphanumeric) return undefined;
        previous = Previous.Dot;
        dotted = true;
        continue;
      }
      if (c === Char.Dash) {
        if (previous !== Previous.Alphanumeric && previous !== Previous.Dash) return undefined;
        previous = Previous.Dash;
        continue;
      }
      break;
    }
    if (previous !== Previous.Alphanumeric) return undefined;

    // What the head is: a registry (ending at the "/" at registryEnd), Docker
    // Hub spelled out (its path starting at hubPathStart), the first
    // component of a Hub path, or the whole name of a Hub `library/` image.
    let registryEnd = -1;
    let hubPathStart = 0;
    let library = false;
    if (i < end && c === Char.Colon) {
      let j = i + 1;
      while (j < end && ((table[s.charCodeAt(j)] as number) & CharClass.Digit) !== 0) j++;
      if (j > i + 1 && j < end && s.charCodeAt(j) === Char.Slash) {
        registryEnd = j;
        i = j;
      }
    }
    if (registryEnd < 0 && i < end && c === Char.Slash) {
      if (dotted || (i === Length.Localhost && s.startsWith(LOCALHOST))) {
        if (isHubDomain(s, i)) hubPathStart = i + 1;
        else registryEnd = i;
      }
    } else if (registryEnd < 0) {
      if (end === Length.Identifier && i === end) return undefined;
      library = true;
    }

    // The rest of the remote name, after the "/" at i.
    let pathEnd = i;
    if (!library) {
      i = hubPathStart > 0 ? hubPathStart : i + 1;
      let slashes = 0;
      previous = Previous.Start;
      for (; i < end; i++) {
        c = s.charCodeAt(i);
        if (((table[c] as number) & CharClass.LowerAlphanumeric) !== 0) {
          previous = Previous.Alphanumeric;
          continue;
        }
        if (c === Char.Slash) {
          if (previous !== Previous.Alphanumeric) return undefined;
          previous = Previous.Start;
          slashes++;
          continue;
        }
        if (c === Char.Dot) {
          if (previous !== Previous.Alphanumeric) return undefined;
          previous = Previous.Dot;
          continue;
        }
        if (c === Char.Dash) {
          if (previous !== Previous.Alphanumeric && previous !== Previous.Dash) return undefined;
          previous = Previous.Dash;
          continue;
        }
        if (c === Char.Underscore) {
          if (previous === Previous.Alphanumeric) previous = Previous.Underscore;
          else if (previous === Previous.Underscore) previous = Previous.TwoUnderscores;
          else return undefined;
          continue;
        }
        break;
      }
      if (previous !== Previous.Alphanumeric) return undefined;
      // docker.io/nginx is docker.io/library/nginx.
      if (hubPathStart > 0 && slashes === 0) library = true;
      pathEnd = i;
    }

    // [":" tag]; c is the character at i, when there is one.
    let tag: string | undefined;
    let digest: string | undefined;
    if (i < end && c === Char.Colon) {
      const tagStart = i + 1;
      if (tagStart >= end) return undefined;
      c = s.charCodeAt(tagStart);
      if (
        ((table[c] as number) & CharClass.TagCharacter) === 0 ||
        c === Char.Dot ||
        c === Char.Dash
      )
        return undefined;
      for (i = tagStart + 1; i < end; i++) {
        c = s.charCodeAt(i);
        if (((table[c] as number) & CharClass.TagCharacter) === 0) break;
      }
      if (i - tagStart > TAG_MAX_LENGTH) return undefined;
      tag = s.slice(tagStart, i);
    }

    // ["@sha256:" hex64], then the end.
    if (i < end) {
      if (c !== Char.At || end - i !== Length.Sha256Suffix || !isSha256Prefix(s, i + 1))
        return undefined;
      for (let j = i + Length.Sha256Prefix; j < end; j++) {
        if (((table[s.charCodeAt(j)] as number) & CharClass.LowerHex) === 0) return undefined;
      }
      digest = s.slice(i + 1);
    }

    let domain: string;
    let path: string;
    let name: string;
    let string: string;
    if (registryEnd >= 0) {
      domain = s.slice(0, registryEnd);
      path = s.slice(registryEnd + 1, pathEnd);
      name = pathEnd === end ? s : s.slice(0, pathEnd);
      string = s;
    } else if (hubPathStart === 0) {
      const tail = pathEnd === end ? s : s.slice(0, pathEnd);
      domain = DEFAULT_DOMAIN;
      if (library) {
        path = OFFICIAL_REPO_PREFIX + tail;
        name = HUB_LIBRARY_SLASH + tail;
        string = HUB_LIBRARY_SLASH + s;
      } else {
        path = tail;
        name = HUB_SLASH + tail;
        string = HUB_SLASH + s;
      }
    } else {
      const prefix = library ? OFFICIAL_REPO_PREFIX : "";
      domain = DEFAULT_DOMAIN;
      path = prefix + s.slice(hubPathStart, pathEnd);
      name = HUB_SLASH + path;
      string = HUB_SLASH + prefix + s.slice(hubPathStart);
    }
    if (path.length > PATH_MAX_LENGTH) return undefined;
    return namedReference(domain, path, name, tag, digest, string);
  };
}

/**
 * True when `sha256:` starts at `at`. Seven comparisons cost less than a
 * call to the `startsWith` built-in, which this path would make for every
 * digest.
 */
function isSha256Prefix(s: string, at: number): boolean {
  return (
    s.charCodeAt(at) === 0x73 && // s
    s.charCodeAt(at + 1) === 0x68 && // h
    s.charCodeAt(at + 2) === 0x61 && // a
    s.charCodeAt(at + 3) === 0x32 && // 2
    s.charCodeAt(at + 4) === 0x35 && // 5
    s.charCodeAt(at + 5) === 0x36 && // 6
    s.charCodeAt(at + 6) === Char.Colon
  );
}
