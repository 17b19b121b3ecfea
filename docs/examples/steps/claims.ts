import { ValidationError } from '@partner-print/client';
import type { DemoStep } from './context.ts';
import { samplePng } from './sample-image.ts';

export const fileClaim: DemoStep = {
  title: 'File an item-issues claim with photo evidence',
  async run({ client, seed, log, state }) {
    const categories = await client.collect('/claimcategories');
    const damaged = categories.find((c) => c.reference === seed.claimcategories.damaged)!;
    log(`category "${damaged.name}" requires evidence: ${damaged.evidenceRequired}`);
    const claimline = { orderlineIndex: 0, quantity: 1, claimcategoryReference: damaged.reference };
    const body = {
      shipmentReference: state.dropshipShipment!,
      orderReference: state.dropshipOrder!,
      comment: 'The case arrived cracked',
    };

    try {
      await client.post('/claim-item-issues', {
        body: { claim: { ...body, claimlines: [{ ...claimline, evidenceReferences: [] }] } },
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      log(`without evidence: ${error.name} ${error.code} (${error.status})`);
    }
    const evidence = await client.uploadEvidence(samplePng(32, 24, 5));
    log(`uploaded evidence → ${evidence}`);
    const { claim } = await client.post('/claim-item-issues', {
      body: { claim: { ...body, claimlines: [{ ...claimline, evidenceReferences: [evidence] }] } },
    });
    state.decidedClaim = claim.reference;
    log(`claim filed → ${claim.reference}`);
  },
};

export const decideClaim: DemoStep = {
  title: 'Support decides the claim (sandbox control API); poll its status',
  async run({ client, sandbox, log, state }) {
    const path = { claimReference: state.decidedClaim! };
    const before = await client.get('/claims/{claimReference}', { params: { path } });
    log(`status before: ${before.claim.status}`);
    sandbox.control.decideClaim(state.decidedClaim!, {
      outcome: 'replacement',
      comment: 'A new case is on its way',
    });
    const { claim } = await client.get('/claims/{claimReference}', { params: { path } });
    log(`status after: ${claim.status}; decision: ${JSON.stringify(claim.decision)}`);
    for (const line of claim.claimlines)
      log(`  orderline ${line.orderlineIndex}: ${JSON.stringify(line.decision)}`);
  },
};

export const retractClaim: DemoStep = {
  title: 'File a package-missing claim and retract it',
  async run({ client, log, state }) {
    const { claim } = await client.post('/claim-package-missing', {
      body: { claim: { shipmentReference: state.combinedShipment!, evidenceReferences: [] } },
    });
    state.retractedClaim = claim.reference;
    log(`package-missing claim → ${claim.reference}`);
    await client.post('/claims/{claimReference}/retract', {
      params: { path: { claimReference: claim.reference } },
    });
    log('retracted (204, no body)');
    for await (const c of client.paginate('/claims')) log(`${c.reference}: ${c.status}`);
  },
};
