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

/**
 * A refused body up to this size is still read to its end (and thrown away, chunk by chunk) before the answer,
 * so an HTTP/1.1 client that is still sending gets its 413 instead of a reset connection. Larger ones are
 * answered at once.
 */
const DISCARD_BYTES = 16 * 1024 * 1024;

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let left = budget;
  while (left > 0) {
    const { done, value } = await reader.read();
    if (done) return;
    left -= value.byteLength;
  }
}

/** Reads at most `limit` bytes of the body; more (declared or sent) is `too_large`. */
export async function readLimited(request: Request, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  const reader = request.body?.getReader();
  if (declared > limit) {
    if (reader && declared <= DISCARD_BYTES) await discard(reader, DISCARD_BYTES);
    reader?.releaseLock();
    return { kind: 'too_large', limit };
  }
  if (!reader) return { kind: 'ok', bytes: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      chunks.length = 0;
      await discard(reader, DISCARD_BYTES - size);
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
