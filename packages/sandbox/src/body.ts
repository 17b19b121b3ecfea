/**
 * Request bodies are read through a byte cap, chunk by chunk: a body larger than the cap is refused
 * as soon as the declared length or the bytes read so far exceed it, so a hostile body is never held
 * in memory whole.
 */

export type BodyRead = { kind: 'ok'; bytes: Uint8Array } | { kind: 'too_large'; limit: number };

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Reads at most `limit` bytes of the body; more (declared or sent) is `too_large`. */
export async function readLimited(request: Request, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return { kind: 'too_large', limit };
  if (!request.body) return { kind: 'ok', bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading; the rest of the body is never pulled (the Node server drains and closes it).
      reader.releaseLock();
      return { kind: 'too_large', limit };
    }
    chunks.push(value);
  }
  return { kind: 'ok', bytes: concat(chunks, size) };
}

export function tooLargeMessage(limit: number): string {
  return `The request body is larger than the sandbox's limit of ${limit} bytes`;
}
