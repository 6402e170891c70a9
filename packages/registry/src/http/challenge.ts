/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1): several challenges in one
 * header (Node's `Headers.get` joins repeated headers with ", "), quoted
 * values with commas and escapes, case-insensitive schemes and names.
 */

/** One authentication challenge: lower-cased scheme and parameter names.
 *
 * @inline
 */
export interface AuthChallenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

import { checkArgument } from "../errors/registry-error.js";

const tokenChar = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;

/**
 * Returns every challenge in a `WWW-Authenticate` value, in order.
 */
export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  checkArgument(
    typeof header === "string",
    "parseWwwAuthenticate",
    header,
    "the header must be a string",
  );
  const out: AuthChallenge[] = [];
  let i = 0;
  const n = header.length;
  const skip = (chars: RegExp) => {
    while (i < n && chars.test(header[i] ?? "")) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < n && tokenChar.test(header[i] ?? "")) i++;
    return header.slice(start, i);
  };
  const quoted = (): string => {
    i++; // opening quote
    let value = "";
    while (i < n && header[i] !== '"') {
      if (header[i] === "\\" && i + 1 < n) i++;
      value += header[i];
      i++;
    }
    i++; // closing quote (or end)
    return value;
  };
  while (i < n) {
    skip(/[\s,]/);
    const scheme = token();
    if (scheme === "") {
      i++; // not a token: skip it so parsing always advances
      continue;
    }
    const params: Record<string, string> = {};
    skip(/[ \t]/);
    for (;;) {
      const save = i;
      const name = token();
      skip(/[ \t]/);
      if (name === "" || header[i] !== "=") {
        i = save;
        break;
      }
      i++;
      skip(/[ \t]/);
      let value: string;
      if (header[i] === '"') {
        value = quoted();
      } else {
        const start = i;
        while (i < n && !/[\s,]/.test(header[i] ?? "")) i++;
        value = header.slice(start, i);
      }
      params[name.toLowerCase()] = value;
      skip(/[ \t]/);
      if (header[i] === ",") {
        i++;
        skip(/[\s]/);
      }
    }
    out.push({ scheme: scheme.toLowerCase(), params });
  }
  return out;
}

/**
 * Picks the challenge the client answers: Bearer first, then Basic
 * (as go-containerregistry's `pickFromMultipleChallenges`); `undefined`
 * when neither is offered.
 */
export function pickChallenge(challenges: readonly AuthChallenge[]): AuthChallenge | undefined {
  checkArgument(
    Array.isArray(challenges),
    "pickChallenge",
    challenges,
    "the challenges must be a list",
  );
  const valid = (c: unknown): c is AuthChallenge =>
    typeof c === "object" && c !== null && typeof (c as AuthChallenge).scheme === "string";
  checkArgument(
    challenges.every(valid),
    "pickChallenge",
    challenges,
    "each challenge must have a scheme",
  );
  return (
    challenges.find((c) => c.scheme === "bearer") ?? challenges.find((c) => c.scheme === "basic")
  );
}
