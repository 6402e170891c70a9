/**
 * Reading response bodies under a size cap. A registry (or anything posing
 * as one) must not make the client buffer an unbounded body: the declared
 * `Content-Length` is checked first, then the stream is counted as it is
 * read and cancelled the moment it passes the cap.
 */

/** Thrown by {@link readBodyLimited} when the body is larger than allowed. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`response body exceeds ${limit} bytes`);
  }
}

/** Returns the whole body of `response`, or throws {@link BodyTooLargeError} past `limit` bytes. */
export async function readBodyLimited(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await cancelBody(response);
    throw new BodyTooLargeError(limit);
  }
  const body = response.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Cancels a body we will not read, so the connection is freed; never throws. */
export async function cancelBody(response: Response | null | undefined): Promise<void> {
  try {
    await response?.body?.cancel();
  } catch {
    // The stream may already be closed or locked; nothing else to free.
  }
}
