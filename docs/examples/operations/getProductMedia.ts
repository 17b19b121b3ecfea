import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { productReference, filename } = await world.productMedia();
  // #region sample
  // Counts against the `downloads` rate-limit bucket as well
  // as `default`.
  const file = await client.download('/products/{productReference}/media/{filename}', {
    params: { path: { productReference, filename } },
  });
  console.log(file.contentType, file.data.byteLength); // data: Uint8Array (or { as: 'blob' | 'stream' })
  // #endregion
  return file.data;
};
