/**
 * The part of Go's `net/url.Parse` the kubelet keyring and containerd's
 * hosts.toml server names depend on, over byte strings (see `utf8.ts`):
 * which inputs are rejected, and the scheme, opaque part, decoded host and
 * path of the rest. Pinned to the Go the keyring vectors
 * were produced with (Go 1.19): the contents of a bracketed host are not
 * validated as an IPv6 address, `[`/`]` may appear inside a host, and a
 * colon in a plain host is checked from the last one. (Go releases from
 * 1.25.2/1.24.8 on reject any bracket that does not enclose an IPv6
 * address, which would make glob classes in host labels unusable.)
 */

/** The pieces of a parsed URL kubeimg reads. */
export interface URL {
  /** The scheme, lower-cased; `""` for a relative URL (`url.URL.Scheme`). */
  readonly scheme: string;
  /** What follows `scheme:` when it does not start with `/` (`http:x`), else `""` (`url.URL.Opaque`). */
  readonly opaque: string;
  /** Host with port, unescaped (`url.URL.Host`). */
  readonly host: string;
  /** Unescaped path (`url.URL.Path`). */
  readonly path: string;
}

type Mode = "path" | "host" | "zone" | "userPassword" | "fragment";

/** Bytes a host may hold literally (besides ASCII letters and digits). */
const hostLiteral = /*#__PURE__*/ new Set("!\"$&'()*+,-.:;<=>[]_~");

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Go's `shouldEscape` for the host and zone modes. */
function hostShouldEscape(c: number): boolean {
  return !(isAlnum(c) || hostLiteral.has(String.fromCharCode(c)));
}

const isHex = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

const unhex = (c: number): number => Number.parseInt(String.fromCharCode(c), 16);

/** Go's `unescape`; `undefined` where Go returns an error. */
function goUnescape(s: string, mode: Mode): string | undefined {
  let count = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      count++;
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) {
        return undefined;
      }
      const three = s.slice(i, i + 3);
      if (mode === "host" && unhex(s.charCodeAt(i + 1)) < 8 && three !== "%25") return undefined;
      if (mode === "zone") {
        const v = (unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2));
        if (three !== "%25" && v !== 0x20 && hostShouldEscape(v)) return undefined;
      }
      i += 3;
      continue;
    }
    if ((mode === "host" || mode === "zone") && c < 0x80 && hostShouldEscape(c)) return undefined;
    i++;
  }
  if (count === 0) return s;
  let out = "";
  for (let i = 0; i < s.length; ) {
    if (s.charCodeAt(i) === 0x25) {
      out += String.fromCharCode((unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2)));
      i += 3;
    } else {
      out += s[i];
      i++;
    }
  }
  return out;
}

function validOptionalPort(port: string): boolean {
  return port === "" || /^:[0-9]*$/.test(port);
}

const userinfoChars = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/**
 * Go's `parseHost`. A host starting with `[` is an IP literal: it must
 * hold a `]` followed by an optional port, and `%25` in it starts a zone
 * with looser escaping rules; what sits between the brackets is not checked
 * to be an IPv6 address. Any other host is checked from its last colon for
 * a port. Either way `[` and `]` are literal host characters, so a glob
 * class inside a label (`r[a-c]g.io`) parses.
 */
function parseHost(host: string): string | undefined {
  if (host.startsWith("[")) {
    const close = host.lastIndexOf("]");
    if (close < 0) return undefined;
    if (!validOptionalPort(host.slice(close + 1))) return undefined;
    const zone = host.slice(0, close).indexOf("%25");
    if (zone >= 0) {
      const parts = [
        goUnescape(host.slice(0, zone), "host"),
        goUnescape(host.slice(zone, close), "zone"),
        goUnescape(host.slice(close), "host"),
      ];
      return parts.some((part) => part === undefined) ? undefined : parts.join("");
    }
  } else {
    const colon = host.lastIndexOf(":");
    if (colon >= 0 && !validOptionalPort(host.slice(colon))) return undefined;
  }
  return goUnescape(host, "host");
}

/**
 * Go's `getScheme`: the scheme and the rest, no scheme when the first
 * character that is not a letter is not a `:` (or a digit, `+`, `-`, `.`
 * comes first), `undefined` for a leading `:` ("missing protocol scheme").
 */
function getScheme(u: string): { scheme: string; rest: string } | undefined {
  for (let i = 0; i < u.length; i++) {
    const c = u.charCodeAt(i);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (letter) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) break;
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) return undefined;
      return { scheme: u.slice(0, i), rest: u.slice(i + 1) };
    }
    break;
  }
  return { scheme: "", rest: u };
}

/**
 * Parses a URL (as a byte string) like Go's `url.Parse`, or returns
 * `undefined` where Go returns an error: absolute (`https://host/path`),
 * opaque (`http:x`: no host, no path) or relative (`a/b`).
 */
export function Parse(raw: string): URL | undefined {
  return ParsePlain(raw) ?? parseAny(raw);
}

/**
 * {@link Parse} for the usual form only, `scheme://host[:port][/path]` in
 * ASCII with a letters-only scheme, a host of letters, digits, `.`, `-` and
 * `_`, an optional numeric port and a path without `%`, `?`, `#` or control
 * characters: Go's answer is the text itself, split, so nothing is
 * unescaped, and the parts are ASCII text as well as bytes. `undefined` for
 * anything else, which {@link Parse} then reads in full.
 */
export function ParsePlain(raw: string): URL | undefined {
  const n = raw.length;
  let i = 0;
  let upper = false;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) continue;
    if (c >= 0x41 && c <= 0x5a) {
      upper = true;
      continue;
    }
    break;
  }
  if (
    i === 0 ||
    raw.charCodeAt(i) !== 0x3a ||
    raw.charCodeAt(i + 1) !== 0x2f ||
    raw.charCodeAt(i + 2) !== 0x2f
  )
    return undefined;
  const schemeEnd = i;
  const hostStart = i + 3;
  let colon = -1;
  for (i = hostStart; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2f) break;
    if (colon >= 0) {
      if (c < 0x30 || c > 0x39) return undefined;
    } else if (c === 0x3a) colon = i;
    else if (!(isAlnum(c) || c === 0x2e || c === 0x2d || c === 0x5f)) return undefined;
  }
  const hostEnd = i;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x25 || c === 0x3f || c === 0x23) return undefined;
  }
  const scheme = raw.slice(0, schemeEnd);
  return {
    scheme: upper ? scheme.toLowerCase() : scheme,
    opaque: "",
    host: raw.slice(hostStart, hostEnd),
    path: raw.slice(hostEnd),
  };
}

/** {@link Parse} for every input; exported for the tests that hold the usual form's shortcut to it. */
export function parseAny(raw: string): URL | undefined {
  const hash = raw.indexOf("#");
  const u = hash >= 0 ? raw.slice(0, hash) : raw;
  const fragment = hash >= 0 ? raw.slice(hash + 1) : "";
  // Control bytes are refused (in everything before the fragment).
  for (let i = 0; i < u.length; i++) {
    const c = u.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return undefined;
  }
  const split = getScheme(u);
  if (split === undefined) return undefined;
  const scheme = split.scheme.toLowerCase();
  let rest = split.rest;
  const question = rest.indexOf("?");
  if (question >= 0) rest = rest.slice(0, question);
  if (fragment !== "" && goUnescape(fragment, "fragment") === undefined) return undefined;
  if (!rest.startsWith("/")) {
    if (scheme !== "") return { scheme, opaque: rest, host: "", path: "" };
    // A colon in the first segment would read as a malformed scheme.
    const slash = rest.indexOf("/");
    if ((slash >= 0 ? rest.slice(0, slash) : rest).includes(":")) return undefined;
  }
  let host = "";
  if ((scheme !== "" || !rest.startsWith("///")) && rest.startsWith("//")) {
    const afterSlashes = rest.slice(2);
    const slash = afterSlashes.indexOf("/");
    const authority = slash >= 0 ? afterSlashes.slice(0, slash) : afterSlashes;
    rest = slash >= 0 ? afterSlashes.slice(slash) : "";
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!userinfoChars.test(userinfo)) return undefined;
      const colon = userinfo.indexOf(":");
      const parts = colon >= 0 ? [userinfo.slice(0, colon), userinfo.slice(colon + 1)] : [userinfo];
      if (parts.some((part) => goUnescape(part, "userPassword") === undefined)) return undefined;
    }
    const parsed = parseHost(at >= 0 ? authority.slice(at + 1) : authority);
    if (parsed === undefined) return undefined;
    host = parsed;
  }
  const path = goUnescape(rest, "path");
  if (path === undefined) return undefined;
  return { scheme, opaque: "", host, path };
}

/**
 * Go's `url.PathUnescape`: every `%` must start two hex digits (either
 * case); `+` stays `+`. On failure, `escape` is what Go's `EscapeError`
 * holds: the `%` and at most two following bytes. Decoded bytes that are not
 * UTF-8 become U+FFFD (Go keeps them raw; a JavaScript string cannot).
 *
 * @example
 * ```ts
 * import { url } from "@kubeimg/core/internal";
 *
 * url.PathUnescape("a%2Fb"); // → { ok: true, value: "a/b" }
 * url.PathUnescape("a%zz"); // → { ok: false, escape: "%zz" }
 * ```
 */
export function PathUnescape(
  s: string,
): { readonly ok: true; readonly value: string } | { readonly ok: false; readonly escape: string } {
  let out = "";
  // Text between escapes is copied in runs; escapes are decoded a run at a time.
  let literalFrom = 0;
  for (let i = 0; i < s.length; ) {
    if (s.charCodeAt(i) !== 0x25) {
      i++;
      continue;
    }
    out += wellFormed(s.slice(literalFrom, i));
    const bytes: number[] = [];
    while (i < s.length && s.charCodeAt(i) === 0x25) {
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) {
        return { ok: false, escape: firstThreeBytes(s.slice(i)) };
      }
      bytes.push((unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2)));
      i += 3;
    }
    out += decodeUTF8(bytes);
    literalFrom = i;
  }
  return { ok: true, value: out + wellFormed(s.slice(literalFrom)) };
}

/** `text` with each lone surrogate as U+FFFD, what a round trip through UTF-8 gives. */
function wellFormed(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    out += `${text.slice(from, i)}\ufffd`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Decodes UTF-8 bytes, each ill-formed sequence as U+FFFD; plain ASCII without a decoder. */
function decodeUTF8(bytes: readonly number[]): string {
  let ascii = true;
  for (const b of bytes) if (b >= 0x80) ascii = false;
  if (ascii) return String.fromCharCode(...bytes);
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** The first three bytes of `text` in UTF-8 (all of it when shorter), as Go's EscapeError holds them. */
function firstThreeBytes(text: string): string {
  const head = text.slice(0, 3);
  let ascii = true;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) return head;
  const bytes = new TextEncoder().encode(text);
  return bytes.length <= 3 ? text : new TextDecoder().decode(bytes.subarray(0, 3));
}
