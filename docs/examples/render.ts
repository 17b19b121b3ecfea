// Product mockups with @partner-print/render against the in-process sandbox:
//   npx tsx docs/examples/render.ts
// A single mockup, ten concurrent calls that pay once, and a batch planned against the weekly tokens.
import { createClient } from '@partner-print/client';
import { nextRendertokenReset, plan, renderMany, renderMockup } from '@partner-print/render';
import { createSandbox } from '@partner-print/sandbox';
import { samplePng } from './steps/sample-image.ts';

const sandbox = createSandbox();
const { seed, clock } = sandbox;
const client = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: sandbox.fetch,
  clock,
});

const studio = {
  sceneReference: seed.scenes.studio,
  productReference: seed.products.print,
  perspectiveReference: seed.perspectives.studioFront,
};

// 1. One mockup from image bytes (uploaded first). The virtual clock makes the 60 s polls instant.
const first = await renderMockup(client, { ...studio, image: samplePng(64, 64, 1), clock });
console.log(
  `render ${first.render.reference}: ${first.media.size} bytes ${first.media.mimeType}, ` +
    `${first.tokensSpent} token(s) spent, placeholder ${first.placeholder?.slice(0, 40)}…`,
);

// 2. Ten concurrent calls for the same composition and image share one render: tokens are spent once.
const image = await client.uploadImage(samplePng(64, 64, 2));
const ten = await Promise.all(
  Array.from({ length: 10 }, () => renderMockup(client, { ...studio, image, clock })),
);
console.log(
  `10 calls → ${new Set(ten.map((r) => r.render.reference)).size} render, ${ten.reduce((n, r) => n + r.tokensSpent, 0)} token(s)`,
);

// 3. A batch: plan it against the remaining tokens, then run it four at a time.
const jobs = [1, 2, 3, 4].map((n) => ({ ...studio, image: samplePng(64, 64, 10 + n) }));
const batch = await plan(client, jobs, { clock });
console.log(
  `batch needs ${batch.totalCost} token(s), ${batch.remaining} remain until ${batch.resetsAt.toISOString()}: ` +
    `${batch.fits.length} fit, ${batch.deferred.length} deferred`,
);
const { results } = await renderMany(client, jobs, {
  clock,
  concurrency: 4,
  onProgress: (e) => {
    if (e.type === 'settled') console.log(`  job ${e.index}: ${e.status} (${e.done}/${e.total})`);
  },
});
console.log(`batch: ${results.filter((r) => r.status === 'fulfilled').length} rendered`);

// 4. When the weekly rendertokens reset next (Monday 00:00 Europe/Amsterdam).
console.log(
  `next reset after 2026-10-24 12:00Z: ${nextRendertokenReset(new Date('2026-10-24T12:00:00Z')).toISOString()}`,
);
