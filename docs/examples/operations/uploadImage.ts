import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const png = world.png(7);
  // #region sample
  // `png` holds the raw bytes of a JPEG or PNG file
  // (Uint8Array, ArrayBuffer, Blob or ReadableStream), e.g.
  // `await readFile('design.png')` in Node.js. The signature
  // is checked before anything is sent.
  const imageReference = await client.uploadImage(png);
  console.log(imageReference); // Image_…, the same reference for the same bytes
  // #endregion
  return imageReference;
};
