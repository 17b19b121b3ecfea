import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  await world.claim();
  // #region sample
  // Open claims plus claims closed in the last 14 days;
  // `closedAfter` moves that window.
  for await (const claim of client.paginate('/claims')) {
    console.log(claim.reference, claim.status, claim.orderReference);
  }
  // #endregion
  return client.collect('/claims', {}, { max: 10 });
};
