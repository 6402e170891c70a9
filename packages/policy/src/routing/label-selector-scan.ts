/**
 * The lexer of Kubernetes label selectors (`k8s.io/apimachinery/pkg/labels`):
 * it splits a selector into identifiers, operators and punctuation exactly
 * where the Kubernetes lexer does, so the parser sees the same tokens and
 * reports the same errors.
 */

export type Token =
  | "error"
  | "eos"
  | ")"
  | ","
  | "!"
  | "=="
  | "="
  | ">"
  | "id"
  | "in"
  | "<"
  | "!="
  | "notin"
  | "(";

export interface ScannedItem {
  readonly token: Token;
  readonly literal: string;
}

/** Literal token texts (everything but identifiers, end and errors). */
const literalTokens: Readonly<Record<string, Token>> = {
  ")": ")",
  ",": ",",
  "!": "!",
  "==": "==",
  "=": "=",
  ">": ">",
  in: "in",
  "<": "<",
  "!=": "!=",
  notin: "notin",
  "(": "(",
};

export const binaryOperatorNames = "in, notin, =, ==, !=, gt, lt";

function isWhitespace(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
}

function isSpecialSymbol(ch: string): boolean {
  return (
    ch === "=" || ch === "!" || ch === "(" || ch === ")" || ch === "," || ch === ">" || ch === "<"
  );
}

/** Splits the selector into tokens the way the Kubernetes lexer does. */
export function scan(text: string): ScannedItem[] {
  // The Go lexer reads byte 0 as end of input.
  const nul = text.indexOf("\0");
  const s = nul === -1 ? text : text.slice(0, nul);
  let pos = 0;
  const items: ScannedItem[] = [];
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos] as string)) pos++;
    if (pos >= s.length) {
      items.push({ token: "eos", literal: "" });
      return items;
    }
    const start = pos;
    if (isSpecialSymbol(s[pos] as string)) {
      let last: ScannedItem | undefined;
      let buffer = "";
      while (pos < s.length && isSpecialSymbol(s[pos] as string)) {
        buffer += s[pos];
        const token = literalTokens[buffer];
        if (token !== undefined) {
          last = { token, literal: buffer };
          pos++;
        } else if (last !== undefined) {
          break;
        } else {
          pos++;
        }
      }
      items.push(
        last ?? {
          token: "error",
          literal: `error expected: keyword found '${s.slice(start, pos)}'`,
        },
      );
      continue;
    }
    while (
      pos < s.length &&
      !isSpecialSymbol(s[pos] as string) &&
      !isWhitespace(s[pos] as string)
    ) {
      pos++;
    }
    const word = s.slice(start, pos);
    const keyword = word === "in" || word === "notin" ? literalTokens[word] : undefined;
    items.push({ token: keyword ?? "id", literal: word });
  }
}
