import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { shipmentReference } = await world.claimableShipment();
  const photo = world.png(9);
  // #region sample
  // The shipment must be at least 48 hours old, within the
  // 100-day warranty, without claims, and its order must not
  // have been replaced. 0 to 3 evidence references.
  const evidenceReference = await client.uploadEvidence(photo);
  const { claim } = await client.post('/claim-package-missing', {
    body: { claim: { shipmentReference, evidenceReferences: [evidenceReference] } },
  });
  console.log(claim.reference); // Claim_…, pending
  // #endregion
  return claim.reference;
};
