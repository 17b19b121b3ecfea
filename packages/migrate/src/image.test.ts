import { PartnerPrintError } from '@partner-print/client';
import { sha256Hex } from '@partner-print/openapi/wire';
import { describe, expect, it, vi } from 'vitest';
import { createImageUploader, decodeBase64Image, InvalidImageError } from './image.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const GIF = new TextEncoder().encode('GIF89a....');
const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

describe('decodeBase64Image', () => {
  it('decodes JPEG and PNG, plain, data URL, base64url and wrapped', () => {
    expect(decodeBase64Image(b64(PNG))).toMatchObject({ kind: 'png', bytes: PNG });
    expect(decodeBase64Image(`data:image/jpeg;base64,${b64(JPEG)}`)).toMatchObject({
      kind: 'jpeg',
      declaredType: 'image/jpeg',
    });
    const url = b64(PNG).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decodeBase64Image(url).bytes).toEqual(PNG);
    const wrapped = b64(JPEG).replace(/(.{4})/g, '$1\n');
    expect(decodeBase64Image(wrapped).kind).toBe('jpeg');
  });

  it('rejects what is not JPEG or PNG, naming it', () => {
    expect(() => decodeBase64Image(b64(GIF))).toThrow(/GIF; V2 accepts only JPEG and PNG/);
    expect(() => decodeBase64Image(btoa('%PDF-1.7 ...'))).toThrow(/PDF/);
    expect(() => decodeBase64Image(btoa('RIFF\0\0\0\0WEBPVP8 '))).toThrow(/WEBP/);
    expect(() => decodeBase64Image(btoa('hello world'))).toThrow(/unrecognised signature/);
    expect(() => decodeBase64Image('not base64 !!')).toThrow(InvalidImageError);
    expect(() => decodeBase64Image('')).toThrow(InvalidImageError);
    expect(() => decodeBase64Image('data:image/png,rawtext')).toThrow(/not base64-encoded/);
  });
});

describe('createImageUploader', () => {
  it('uploads the same bytes once, also concurrently', async () => {
    const upload = vi.fn(async (b: Uint8Array) => `Image_${(await sha256Hex(b)).slice(0, 26)}`);
    const up = createImageUploader(upload);
    const refs = await Promise.all([up.uploadBase64(b64(PNG)), up.upload(PNG), up.uploadBase64(b64(JPEG))]);
    expect(refs[0]).toBe(refs[1]);
    expect(refs[2]).not.toBe(refs[0]);
    expect(upload).toHaveBeenCalledTimes(2);
    expect(up.stats()).toEqual({ uploads: 2, deduplicated: 1 });
  });

  it('retries after a failed upload and never uploads non-images', async () => {
    let n = 0;
    const up = createImageUploader({
      uploadImage: async () => {
        if (n++ === 0) throw new Error('network');
        return 'Image_x';
      },
    });
    await expect(up.upload(PNG)).rejects.toThrow('network');
    await expect(up.upload(PNG)).resolves.toBe('Image_x');
    await expect(up.upload(GIF)).rejects.toThrow(InvalidImageError);
    expect(n).toBe(2);
  });

  it('resolves to the Image_ reference, and rejects an upload answered without one', async () => {
    const up = createImageUploader(async () => 'not-a-reference');
    const e = await up.upload(PNG).catch((x) => x);
    expect(e).toBeInstanceOf(PartnerPrintError);
    expect(e).toMatchObject({ code: 'unexpected_response' });
    const gif = await createImageUploader(async () => 'Image_x')
      .upload(GIF)
      .catch((x) => x);
    expect(gif).toBeInstanceOf(PartnerPrintError);
    expect(gif).toMatchObject({ code: 'invalid_image', detected: 'gif' });
  });
});
