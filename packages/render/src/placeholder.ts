import { thumbHashToDataURL } from 'thumbhash';

/** Decodes base64 or base64url (padding optional) with the web-standard `atob`. */
export function decodeBase64(text: string): Uint8Array {
  const normal = text.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(normal) || normal.length % 4 === 1) {
    throw new TypeError('The thumbhash is not valid base64');
  }
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A render's base64 thumbhash as a small PNG `data:` URL, ready for `<img src>` while the media loads.
 * Uses thumbhash's own decoder and PNG encoder, which need nothing beyond `btoa`.
 */
export function thumbhashToDataUrl(thumbhash: string): string {
  const bytes = decodeBase64(thumbhash);
  // A thumbhash carries at least a 5-byte header (DC, scale and size bits).
  if (bytes.length < 5) throw new TypeError('The thumbhash is too short to decode');
  return thumbHashToDataURL(bytes);
}
