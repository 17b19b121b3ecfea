import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { orderReference, shipmentReference } = await world.shippedOrder();
  const photo = world.png(10);
  // #region sample
  const { claimcategories } = await client.get('/claimcategories');
  // "Package missing" is not valid for item issues; this
  // category requires evidence.
  const category = claimcategories.find((c) => c.evidenceRequired && !/package missing/i.test(c.name));
  if (!category) throw new Error('no category that requires evidence');

  const evidenceReference = await client.uploadEvidence(photo);
  const { claim } = await client.post('/claim-item-issues', {
    body: {
      claim: {
        shipmentReference,
        orderReference,
        comment: 'The print on one case is smeared.', // at most 1000 characters
        claimlines: [
          {
            orderlineIndex: 0,
            quantity: 1, // not more than shipped, open claims included
            claimcategoryReference: category.reference,
            evidenceReferences: [evidenceReference], // 0 to 3; at least 1 here (evidence_required)
          },
        ],
      },
    },
  });
  console.log(claim.reference);
  // #endregion
  return claim.reference;
};
