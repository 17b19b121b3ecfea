import { rgbaToThumbHash, thumbHashToRGBA } from 'thumbhash';
import { describe, expect, it } from 'vitest';
import { decodeBase64, thumbhashToDataUrl } from './placeholder.ts';

function gradient(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      rgba.set([(x * 255) / w, (y * 255) / h, 128, 255], i);
    }
  }
  return rgba;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe('thumbhashToDataUrl', () => {
  const hash = rgbaToThumbHash(64, 48, gradient(64, 48));

  it('decodes a base64 thumbhash into a PNG data URL', () => {
    const url = thumbhashToDataUrl(toBase64(hash));
    expect(url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const png = decodeBase64(url.slice('data:image/png;base64,'.length));
    expect([...png.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    // IHDR width and height match the decoded thumbhash (landscape, at most 32 px).
    const { w, h } = thumbHashToRGBA(hash);
    const view = new DataView(png.buffer);
    expect(view.getUint32(16)).toBe(w);
    expect(view.getUint32(20)).toBe(h);
    expect(w).toBeGreaterThan(h);
  });

  it('accepts base64url and missing padding', () => {
    const standard = toBase64(hash);
    const url = standard.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(thumbhashToDataUrl(url)).toBe(thumbhashToDataUrl(standard));
  });

  it('rejects text that is not a thumbhash', () => {
    expect(() => thumbhashToDataUrl('not base64!')).toThrow(TypeError);
    expect(() => thumbhashToDataUrl('AAA=')).toThrow(/too short/);
  });
});
