/**
 * Test support, not shipped: fast-check arbitraries that generate strings
 * shaped like image references (valid ones, near misses, and noise), and an
 * independent oracle for `Parse` and `ParseNormalizedNamed` built the way
 * upstream builds them — native regular expressions assembled from the
 * pieces of distribution/reference `regexp.go` — to check the hand-written
 * scanner against.
 */
import fc from "fast-check";
import {
  parse,
  parseAnyReference,
  parseDockerRef,
  parseNamed,
  parseNormalizedNamed,
} from "./parse.js";
import type { Reference } from "./reference.js";
import { lowerCaseChanges } from "./unicode13-case.js";

const chars = (s: string) => fc.constantFrom(...s.split(""));
const run = (unit: fc.Arbitrary<string>, minLength: number, maxLength: number) =>
  fc.string({ unit, minLength, maxLength });

const lowerAlnum = chars("abcdefghijklmnopqrstuvwxyz0123456789");
const hexLower = chars("0123456789abcdef");
const hexAny = chars("0123456789abcdefABCDEF");
/** Characters that break things: upper case, separators, delimiters, non-ASCII, control. */
const noise = fc.constantFrom(
  ..."ABCZ-_.:/@+[]% ".split(""),
  "\t",
  "\n",
  "\u00a0",
  "é",
  "É",
  "İ",
  "\u212a",
  "日",
  "\u200b",
  "😀",
);

const separator = fc.constantFrom(".", "_", "__", "-", "--", "---", "___", "..", ".-", "");
const pathComponent = fc
  .tuple(
    run(lowerAlnum, 1, 6),
    fc.array(fc.tuple(separator, run(lowerAlnum, 0, 5)), { maxLength: 3 }),
  )
  .map(([head, rest]) => head + rest.map(([sep, part]) => sep + part).join(""));
const longComponent = fc.integer({ min: 240, max: 262 }).map((n) => "a".repeat(n));
const path = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(pathComponent, { minLength: 1, maxLength: 4 }).map((p) => p.join("/")),
  },
  { weight: 1, arbitrary: longComponent },
);

const label = fc
  .tuple(run(chars("abcxyzABZ019"), 1, 5), run(chars("abz09-AZ"), 0, 4), chars("abz09AZ-"))
  .map(([a, b, c]) => a + b + c);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join("."));
const ipv6 = run(chars("0123456789abcdefABCDEF:"), 0, 12).map((h) => `[${h}]`);
const port = fc.oneof(
  fc.constant(""),
  run(chars("0123456789"), 1, 6).map((p) => `:${p}`),
  fc.constantFrom(":", ":port", ":5000a"),
);
const domain = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(hostname, port).map(([h, p]) => h + p) },
  { weight: 1, arbitrary: fc.tuple(ipv6, port).map(([h, p]) => h + p) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "localhost",
      "localhost:5000",
      "docker.io",
      "index.docker.io",
      "registry-1.docker.io",
      "Docker.io",
      "LOCALHOST",
      "registry.k8s.io",
      "ex_ample.com",
      "gcr.io",
    ),
  },
);

const tag = fc.oneof(
  { weight: 6, arbitrary: run(chars("abcz019ABZ_.-"), 1, 12) },
  { weight: 1, arbitrary: fc.integer({ min: 126, max: 130 }).map((n) => "t".repeat(n)) },
);

const digest = fc.oneof(
  fc
    .constantFrom(["sha256", 64], ["sha384", 96], ["sha512", 128])
    .chain(([alg, n]) =>
      fc.oneof(
        { weight: 4, arbitrary: run(hexLower, n as number, n as number).map((h) => `${alg}:${h}`) },
        { weight: 1, arbitrary: run(hexAny, n as number, n as number).map((h) => `${alg}:${h}`) },
        { weight: 1, arbitrary: run(hexLower, 30, 130).map((h) => `${alg}:${h}`) },
      ),
    ),
  fc
    .tuple(
      fc.constantFrom(
        "md5",
        "sha1",
        "SHA256",
        "sha256+b64u",
        "blake3",
        "a.b",
        "x-y_z",
        "sha256-",
        "9a",
      ),
      run(hexAny, 28, 70),
    )
    .map(([alg, h]) => `${alg}:${h}`),
);

/** A reference assembled from grammar pieces, most of them valid. */
const assembled = fc
  .tuple(
    fc.option(domain, { freq: 2 }),
    path,
    fc.option(tag, { freq: 2 }),
    fc.option(digest, { freq: 3 }),
  )
  .map(
    ([d, p, t, g]) =>
      (d === null ? "" : `${d}/`) + p + (t === null ? "" : `:${t}`) + (g === null ? "" : `@${g}`),
  );

/** One edit: insert a noisy character, delete one, or upper-case one. */
function mutate(s: string, at: number, kind: number, c: string): string {
  const i = s.length === 0 ? 0 : at % (s.length + 1);
  if (kind === 0) return s.slice(0, i) + c + s.slice(i);
  if (kind === 1) return s.slice(0, i) + s.slice(i + 1);
  return s.slice(0, i) + s.slice(i, i + 1).toUpperCase() + s.slice(i + 1);
}
const mutated = fc
  .tuple(
    assembled,
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), noise), { minLength: 1, maxLength: 3 }),
  )
  .map(([s, edits]) => edits.reduce((acc, [at, kind, c]) => mutate(acc, at, kind, c), s));

/** Strings shaped like image references: valid, nearly valid, and noise. */
export const referenceLike: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: assembled },
  { weight: 6, arbitrary: mutated },
  { weight: 1, arbitrary: run(hexLower, 64, 64) },
  { weight: 1, arbitrary: digest },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
);

// ---------------------------------------------------------------------------
// The oracle: upstream's regular expressions, verbatim in structure.

const alphanumeric = "[a-z0-9]+";
const separatorPattern = "(?:[._]|__|[-]+)";
const domainNameComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const optionalPort = "(?::[0-9]+)?";
const tagPattern = "[\\w][\\w.-]{0,127}";
const digestPattern = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}";
const ipv6address = "\\[(?:[a-fA-F0-9:]+)\\]";
const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`;
const domainAndPort = `(?:${domainName}|${ipv6address})${optionalPort}`;
const pathComponentPattern = `${alphanumeric}(?:${separatorPattern}${alphanumeric})*`;
const remoteName = `${pathComponentPattern}(?:/${pathComponentPattern})*`;
const namePattern = `(?:${domainAndPort}/)?${remoteName}`;

let compiled:
  | { reference: RegExp; name: RegExp; identifier: RegExp; ociDigest: RegExp }
  | undefined;
function patterns() {
  compiled ??= {
    reference: new RegExp(`^(${namePattern})(?::(${tagPattern}))?(?:@(${digestPattern}))?$`),
    name: new RegExp(`^(?:(${domainAndPort})/)?(${remoteName})$`),
    identifier: /^[a-f0-9]{64}$/,
    ociDigest: /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/,
  };
  return compiled;
}

/**
 * Go's strings.ToLower: the simple per-rune mapping (U+0130 lowers to plain
 * "i"), and only for runes that Go 1.19's Unicode 13 tables call upper case;
 * the engine's newer Unicode would lower more.
 */
function goToLower(s: string): string {
  let out = "";
  for (const ch of s) {
    const codePoint = ch.codePointAt(0) as number;
    if (codePoint < 0x80) out += ch.toLowerCase();
    else if (codePoint === 0x130) out += "i";
    else out += lowerCaseChanges(codePoint) ? ch.toLowerCase() : ch;
  }
  return out;
}

/** What the oracle answers: the fields upstream would report, or the error code. */
export type OracleAnswer =
  | {
      domain: string;
      path: string;
      tag: string | undefined;
      digest: string | undefined;
      string: string;
    }
  | { error: string };

function goDigestError(d: string): string | undefined {
  const i = d.indexOf(":");
  if (i <= 0 || i + 1 === d.length) return "DIGEST_INVALID_FORMAT";
  const algorithm = d.slice(0, i);
  const encoded = d.slice(i + 1);
  const sizes: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
  const size = Object.hasOwn(sizes, algorithm) ? sizes[algorithm] : undefined;
  if (size === undefined) {
    return patterns().ociDigest.test(d) ? "DIGEST_UNSUPPORTED" : "DIGEST_INVALID_FORMAT";
  }
  if (new TextEncoder().encode(encoded).length !== size) return "DIGEST_INVALID_LENGTH";
  return /^[a-f0-9]+$/.test(encoded) ? undefined : "DIGEST_INVALID_FORMAT";
}

/** distribution/reference `Parse`, by regular expression. */
export function oracleParse(s: string): OracleAnswer {
  if (s === "") return { error: "NAME_EMPTY" };
  const { reference, name } = patterns();
  const m = reference.exec(s);
  if (m === null) {
    const lowered = goToLower(s);
    if (lowered !== s && reference.test(lowered)) return { error: "NAME_CONTAINS_UPPERCASE" };
    return { error: "INVALID_REFERENCE_FORMAT" };
  }
  const fullName = m[1] as string;
  const n = name.exec(fullName);
  const domainPart = n ? (n[1] ?? "") : "";
  const pathPart = n ? (n[2] as string) : fullName;
  if (pathPart.length > 255) return { error: "NAME_TOO_LONG" };
  const digestPart = m[3] || undefined;
  if (digestPart !== undefined) {
    const code = goDigestError(digestPart);
    if (code !== undefined) return { error: code };
  }
  const tagPart = m[2] || undefined;
  const joined = domainPart === "" ? pathPart : `${domainPart}/${pathPart}`;
  return {
    domain: domainPart,
    path: pathPart,
    tag: tagPart,
    digest: digestPart,
    string: joined + (tagPart ? `:${tagPart}` : "") + (digestPart ? `@${digestPart}` : ""),
  };
}

/** distribution/reference v0.6.0 `ParseNormalizedNamed`, step by step. */
export function oracleParseNormalizedNamed(s: string): OracleAnswer {
  if (patterns().identifier.test(s)) return { error: "NAME_IS_HEX_IDENTIFIER" };
  const i = s.indexOf("/");
  let domainPart: string;
  let remainder: string;
  if (
    i === -1 ||
    (!/[.:]/.test(s.slice(0, i)) &&
      s.slice(0, i) !== "localhost" &&
      goToLower(s.slice(0, i)) === s.slice(0, i))
  ) {
    domainPart = "docker.io";
    remainder = s;
  } else {
    domainPart = s.slice(0, i);
    remainder = s.slice(i + 1);
  }
  if (domainPart === "index.docker.io") domainPart = "docker.io";
  if (domainPart === "docker.io" && !remainder.includes("/")) remainder = `library/${remainder}`;
  const colon = remainder.indexOf(":");
  const remote = colon > -1 ? remainder.slice(0, colon) : remainder;
  if (goToLower(remote) !== remote) return { error: "REMOTE_NAME_CONTAINS_UPPERCASE" };
  return oracleParse(`${domainPart}/${remainder}`);
}

/** Runs `fn` and reports its result the way the oracle does. */
export function describeOutcome(fn: () => Reference): OracleAnswer {
  try {
    const r = fn();
    if (!("name" in r)) return { error: "DIGEST_ONLY" };
    return { domain: r.domain, path: r.path, tag: r.tag, digest: r.digest, string: r.string };
  } catch (error) {
    return { error: String((error as { code?: unknown }).code ?? error) };
  }
}

/** The five parsing operations, for properties that hold for each. */
export const operations: readonly ((s: string) => Reference)[] = [
  parse,
  parseNamed,
  parseNormalizedNamed,
  parseAnyReference,
  parseDockerRef,
];
