// JPEG (FF D8 FF) and PNG (89 50 4E 47 0D 0A 1A 0A): the only formats uploads accept.
const SIGNATURES = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
] as const;

export type UploadImageType = (typeof SIGNATURES)[number]['type'];

/** The image type by its leading bytes, when it is one the service accepts (JPEG or PNG). */
export function sniffImageType(bytes: Uint8Array): UploadImageType | undefined {
  return SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[i] === b))?.type;
}
