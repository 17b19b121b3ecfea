// A tiny valid PNG built in memory (stored deflate blocks), so the flow needs no files or node APIs.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function zlibStored(raw: Uint8Array): Uint8Array {
  // One stored block is enough for the small images used here (< 64 KiB of raw pixels).
  const out = [
    0x78,
    0x01,
    1,
    raw.length & 0xff,
    raw.length >> 8,
    ~raw.length & 0xff,
    (~raw.length >> 8) & 0xff,
  ];
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    out.push(byte);
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  out.push(b >> 8, b & 0xff, a >> 8, a & 0xff);
  return new Uint8Array(out);
}

/** An RGB PNG of width×height (raw pixels must stay under 64 KiB) whose bytes depend on `seed`. */
export function samplePng(width = 32, height = 32, seed = 1): Uint8Array<ArrayBuffer> {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 8 + seed * 40) & 0xff;
      raw[row + 2 + x * 3] = (y * 8 + seed * 90) & 0xff;
      raw[row + 3 + x * 3] = (seed * 150) & 0xff;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibStored(raw)),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
