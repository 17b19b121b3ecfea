/** SHA-256 of bytes or of a string's UTF-8, as lowercase hex (Web Crypto: every runtime has it). */
export async function sha256Hex(data: ArrayBuffer | ArrayBufferView | string): Promise<string> {
  const bytes =
    typeof data === 'string'
      ? new TextEncoder().encode(data)
      : data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  // A copy into an ArrayBuffer-backed view: subtle.digest refuses SharedArrayBuffer views in some runtimes.
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(bytes));
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
