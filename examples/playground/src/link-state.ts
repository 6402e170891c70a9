/**
 * The page's state in the URL fragment: JSON, deflate-raw, base64url
 * (`#s=…`). A link is text someone else wrote, and deflate reaches about
 * 1000:1, so reading one is bounded: the fragment's length, and the
 * inflated bytes, read as they come and abandoned at the first byte past
 * the bound. The bounds are those of the largest link the page writes
 * itself, so every link it makes is read back.
 */

/** The largest state kept in a link, in JSON characters; a bigger paste is not written into the URL. */
export const MAX_LINK_STATE = 200_000;

/** Inflated bytes a link may hold: UTF-8 takes at most 3 bytes per JSON character. */
export const MAX_INFLATED_BYTES = 3 * MAX_LINK_STATE;

/**
 * Fragment characters a link may hold: base64 of the deflated largest state
 * (deflate grows text it cannot shrink by well under 1 KB at this size).
 */
export const MAX_FRAGMENT_CHARS = Math.ceil((MAX_INFLATED_BYTES + 1024) / 3) * 4;

/** Input bytes handed to the inflater at a time: what one step can inflate to stays near 1 MB. */
const FEED_BYTES = 1024;

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const b = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

/** What {@link inflateBounded} answers. */
export type Inflated =
  | { readonly kind: "ok"; readonly bytes: Uint8Array }
  /** `inflated`: the bytes produced before the inflater was stopped. */
  | { readonly kind: "too-large"; readonly inflated: number };

/**
 * Inflates deflate-raw `input`, stopping as soon as the output passes
 * `limit` bytes: the input is fed a little at a time and the output read as
 * it comes, so no more than about one step past `limit` is ever produced.
 * Rejects on input that is not deflate-raw.
 */
export async function inflateBounded(input: Uint8Array, limit: number): Promise<Inflated> {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const feeding = (async () => {
    for (let at = 0; at < input.length; at += FEED_BYTES) {
      // A view of the caller's bytes, as DecompressionStream reads them.
      await writer.write(input.subarray(at, at + FEED_BYTES) as Uint8Array<ArrayBuffer>);
    }
    await writer.close();
  })();
  // A broken stream is reported by the reader; a stopped one leaves writes rejected.
  feeding.catch(() => {});
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { kind: "too-large", inflated: size };
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return { kind: "ok", bytes };
}

/** Returns the fragment (`s=…`, no `#`) holding `json`, or `undefined` past {@link MAX_LINK_STATE}. */
export async function encodeLink(json: string): Promise<string | undefined> {
  if (json.length > MAX_LINK_STATE) return undefined;
  const body = new Blob([new TextEncoder().encode(json)])
    .stream()
    .pipeThrough(new CompressionStream("deflate-raw"));
  const packed = new Uint8Array(await new Response(body).arrayBuffer());
  return `s=${toBase64Url(packed)}`;
}

/** What {@link decodeLink} answers: the state's object, or why the link was refused. */
export type LinkState = { readonly value: object } | { readonly refused: string };

/**
 * Reads the state of a fragment (`#s=…`). `undefined` when the fragment is
 * not a state (empty, another shape, not deflate, not a JSON object); a
 * refusal, with the message for the page, when it is larger than any link
 * the page writes.
 */
export async function decodeLink(fragment: string): Promise<LinkState | undefined> {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (!text.startsWith("s=")) return undefined;
  if (text.length - 2 > MAX_FRAGMENT_CHARS) {
    return {
      refused: `This link was not loaded: it holds ${text.length - 2} characters of state, and a playground link holds at most ${MAX_FRAGMENT_CHARS}.`,
    };
  }
  const m = /^s=([A-Za-z0-9_-]+)$/.exec(text);
  if (m === null) return undefined;
  try {
    const inflated = await inflateBounded(fromBase64Url(m[1] as string), MAX_INFLATED_BYTES);
    if (inflated.kind === "too-large") {
      return {
        refused: `This link was not loaded: its state inflates past ${MAX_INFLATED_BYTES / 1000} KB, more than any link the playground writes.`,
      };
    }
    const value = JSON.parse(new TextDecoder().decode(inflated.bytes)) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? { value }
      : undefined;
  } catch {
    return undefined;
  }
}
