// #region setup
import { readFile } from 'node:fs/promises';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A composition (scene + product + perspective) and your design.
const compositionReference = process.env.COMPOSITION_REFERENCE as `Composition_${string}`;
const imageReference = await client.uploadImage(await readFile('design.png'));
// #endregion

// Every POST costs the composition's tokenCost, even for a
// pair you rendered before: keep the render reference.
// (@partner-print/render's renderMockup does this for you.)
const { rendertokens } = await client.get('/rendertokens');
const { composition } = await client.get('/compositions/{compositionReference}', {
  params: { path: { compositionReference } },
});
if (rendertokens.remaining < composition.tokenCost) throw new Error(`no tokens until ${rendertokens.resets}`);

const { render } = await client.post('/renders', {
  body: { render: { compositionReference, imageReference } },
});
console.log(render.reference); // Render_…, pending
