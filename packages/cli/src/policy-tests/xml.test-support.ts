/**
 * A strict XML 1.0 well-formedness check, and a reader of the element tree,
 * for the JUnit output: one root, every tag closed in order, attributes
 * quoted and unique, only the five predefined entities and numeric
 * references, no raw `<` or `&` in text, only XML characters.
 */

/** An element of the parsed tree. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

function decode(text: string, at: number): string {
  if (/[<]/.test(text)) throw new Error(`raw < at ${at}`);
  return text.replace(/&([^;]*);|&/g, (_whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & at ${at}`);
    if (ref in ENTITIES) return ENTITIES[ref] as string;
    const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
    if (!m) throw new Error(`unknown entity &${ref}; at ${at}`);
    const code = m[1] !== undefined ? Number.parseInt(m[1], 16) : Number(m[2]);
    const c = String.fromCodePoint(code);
    if (NOT_XML.test(c)) throw new Error(`reference to a non-XML character at ${at}`);
    return c;
  });
}

/** Returns the root element of `text`; throws naming the first problem. */
export function parseXml(text: string): XmlElement {
  if (NOT_XML.test(text)) throw new Error("a character XML does not allow");
  let i = 0;
  const decl = /^<\?xml version="1\.0"( encoding="UTF-8")?\?>/.exec(text);
  if (decl) i = decl[0].length;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  skipSpace();
  while (i < text.length) {
    if (text.startsWith("</", i)) {
      const m = NAME.exec(text.slice(i + 2));
      const open = stack.pop();
      if (!m || !open || m[0] !== open.name) throw new Error(`mismatched end tag at ${i}`);
      i += 2 + m[0].length;
      skipSpace();
      if (text[i] !== ">") throw new Error(`bad end tag at ${i}`);
      i++;
    } else if (text[i] === "<") {
      if (stack.length === 0 && root !== undefined) throw new Error(`a second root at ${i}`);
      const m = NAME.exec(text.slice(i + 1));
      if (!m) throw new Error(`bad tag name at ${i}`);
      i += 1 + m[0].length;
      const attributes: Record<string, string> = {};
      for (;;) {
        const before = i;
        skipSpace();
        if (text.startsWith("/>", i) || text[i] === ">") break;
        if (i === before) throw new Error(`no space before an attribute at ${i}`);
        const a = NAME.exec(text.slice(i));
        if (!a) throw new Error(`bad attribute at ${i}`);
        i += a[0].length;
        if (text[i] !== "=" || (text[i + 1] !== '"' && text[i + 1] !== "'")) {
          throw new Error(`unquoted attribute at ${i}`);
        }
        const quote = text[i + 1] as string;
        const end = text.indexOf(quote, i + 2);
        if (end < 0) throw new Error(`unterminated attribute at ${i}`);
        if (a[0] in attributes) throw new Error(`duplicate attribute ${a[0]} at ${i}`);
        attributes[a[0]] = decode(text.slice(i + 2, end), i);
        i = end + 1;
      }
      const element: XmlElement = { name: m[0], attributes, children: [], text: "" };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else root = element;
      if (text.startsWith("/>", i)) i += 2;
      else {
        i++;
        stack.push(element);
      }
    } else {
      const end = text.indexOf("<", i);
      const chunk = text.slice(i, end < 0 ? text.length : end);
      const open = stack[stack.length - 1];
      if (!open) {
        if (chunk.trim() !== "") throw new Error(`text outside the root at ${i}`);
      } else {
        open.text += decode(chunk, i);
      }
      i += chunk.length;
    }
  }
  if (stack.length > 0 || root === undefined) throw new Error("unclosed element or no root");
  return root;
}
