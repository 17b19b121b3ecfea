// A V1 `GET /stock` answer (and a `POST /images` or `POST /render` one) used in a way whose V2 equivalent has another shape (destructured as an array,
// indexed, `.length`, returned or passed on whole, its entries used whole or read for a field V2 does not
// document) is left on V1 and marked: the rewritten module is run here, with V1 answering as it always did and
// the V2 lists coming from the sandbox, and must answer what the V1 code answered instead of throwing or reading
// undefined.

import { createClient } from '@partner-print/client';
import { describe, expect, it } from 'vitest';
import { newSandbox } from './helpers.ts';
import { rewriteTwice, runModule } from './rewrite.ts';

const V1_STOCK = [
  { sku: 'ACME-MUG-11OZ', logical_quantity: 3, physical_quantity: 5, reorder_point: 2, available: true },
];
const V1_UPLOAD = { reference: 'IMG-1', url: 'https://cdn.partner-print.example/IMG-1.png' };
const V1_RENDER = {
  reference: 'RND-1',
  status: 'completed',
  url: 'https://cdn.partner-print.example/RND-1.png',
};
/** What V1 answers, by path. */
const V1_ANSWERS: Record<string, unknown> = {
  '/stock': V1_STOCK,
  '/images': V1_UPLOAD,
  '/render': V1_RENDER,
};
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A V1 module whose function `f` reads the stock with `use` (its body after the call). */
const v1Module = (use: string) =>
  `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_KEY ?? '' };
function count(list) {
  return list.length;
}
export async function f() {
  const res = await fetch(\`\${BASE}/stock\`, { headers });
  ${use}
}
`;

/**
 * Runs a module's `f`: its `fetch` answers V1's stock list as V1 does; its V2 client (if the rewrite made one)
 * reads the sandbox.
 */
async function run(code: string, ...args: unknown[]): Promise<unknown> {
  const sandbox = newSandbox();
  const v1Fetch = async (input: string) => {
    const path = String(input).replace('https://api.partner-print.example/v1', '');
    if (!(path in V1_ANSWERS)) throw new Error(`unexpected request to ${input}`);
    return Response.json(V1_ANSWERS[path]);
  };
  return runModule(code, v1Fetch, sandbox, args);
}

describe('GET /stock used in a shape V2 does not have', () => {
  it.each([
    ['destructured as an array', 'const [entry] = await res.json();\n  return entry.logical_quantity;', 3],
    ['indexed', 'const stock = await res.json();\n  return stock[0].logical_quantity;', 3],
    ['its length read', 'const stock = await res.json();\n  return stock.length;', 1],
    ['returned whole', 'const stock = await res.json();\n  return stock;', V1_STOCK],
    ['passed on whole', 'const stock = await res.json();\n  return count(stock);', 1],
    ['an entry used whole', 'const stock = await res.json();\n  return stock.map((e) => e);', V1_STOCK],
    [
      'found in an expression',
      'const stock = await res.json();\n  return stock.find((e) => e.logical_quantity > 0).sku;',
      'ACME-MUG-11OZ',
    ],
    [
      'read for a field V2 does not document',
      'const stock = await res.json();\n  return stock.map((e) => e.available);',
      [true],
    ],
    [
      'read for an undocumented field next to a quantity',
      'const stock = await res.json();\n  return stock.map((e) => e.reorder_point + e.logical_quantity);',
      [5],
    ],
    [
      'filtered, then returned whole',
      'const stock = await res.json();\n  return stock.filter((e) => e.logical_quantity > 0);',
      V1_STOCK,
    ],
  ])('%s: left on V1, marked with what V2 maps it to, and it still answers', async (_, use, answer) => {
    const source = v1Module(use);
    expect(await run(source)).toEqual(answer);
    const r = rewriteTwice(source, 'stock.mjs');
    expect(await run(r.output)).toEqual(answer);
    expect(r.output).toMatch(/fetch\(`\$\{BASE\}\/stock`, \{ headers \}\)/);
    expect(r.output).not.toContain('partnerPrint.collect(');
    // The call, and what is left of V1 (its base URL, its credential header) while it still runs there.
    const todo = r.findings.filter((f) => f.kind === 'todo');
    expect(todo.map((f) => f.what)).toEqual(['V1 base URL', 'V1 credential header', 'GET /stock (fetch)']);
    expect(todo[2]?.detail).toMatch(
      /^V1 call left as it is: .*GET \/products, GET \/productgroups and GET \/items/,
    );
    expect(r.output).toMatch(
      /\n {2}\/\/ TODO\(partner-print v2\): V1 call left as it is: [^\n]*\n {2}const res = await fetch\(/,
    );
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
  });

  it('entries read for their quantities are still rewritten to the warehouse items, and run', async () => {
    const r = rewriteTwice(
      v1Module('const stock = await res.json();\n  return stock.map((e) => [e.sku, e.logical_quantity]);'),
      'stock.mjs',
    );
    expect(r.output).toContain("collect('/items')");
    const sandbox = newSandbox();
    const items = await createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
    }).collect('/items');
    expect(await run(r.output)).toEqual(items.map((i) => [i.sku, i.logicalQuantity]));
  });
});

/** A V1 module whose function `f(b64)` uploads an image and reads the answer with `use`. */
const v1Upload = (use: string) =>
  `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_KEY ?? '', 'Content-Type': 'application/json' };
export async function f(b64) {
  const res = await fetch(\`\${BASE}/images\`, { method: 'POST', headers, body: JSON.stringify({ image: b64 }) });
  ${use}
}
`;

describe('POST /images answer read for more than its reference', () => {
  it.each([
    ['another field read', 'const img = await res.json();\n  return img.url;', V1_UPLOAD.url],
    ['returned whole', 'return await res.json();', V1_UPLOAD],
  ])('%s: left on V1, marked, and it still answers', async (_, use, answer) => {
    const source = v1Upload(use);
    expect(await run(source, PNG)).toEqual(answer);
    const r = rewriteTwice(source, 'upload.mjs');
    expect(await run(r.output, PNG)).toEqual(answer);
    expect(r.output).not.toContain('uploadImage(');
    const call = r.findings.filter((f) => f.what === 'POST /images (fetch)');
    expect(call.map((f) => f.kind)).toEqual(['todo']);
    expect(call[0]?.detail).toMatch(/^V1 call left as it is: .*uploadImage returns that Image_ reference/);
  });

  it('its reference read is still rewritten to the Image_ reference, and runs', async () => {
    const r = rewriteTwice(v1Upload('const img = await res.json();\n  return img.reference;'), 'upload.mjs');
    expect(r.output).toContain('uploadImage(b64)');
    expect(await run(r.output, PNG)).toMatch(/^Image_/);
  });
});

/** A V1 module whose function `f(sku)` renders the logo on a product and reads the answer with `use`. */
const v1Render = (use: string) =>
  `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_KEY ?? '', 'Content-Type': 'application/json' };
const LOGO = '${PNG}';
function keep(r) {
  return r;
}
export async function f(sku) {
  const res = await fetch(\`\${BASE}/render\`, { method: 'POST', headers, body: JSON.stringify({ scene_reference: 'Scene_1', perspective_reference: 'Perspective_1', sku, image: LOGO }) });
  ${use}
}
`;

describe('POST /render answer used', () => {
  it.each([
    ['returned whole', 'return await res.json();', V1_RENDER],
    ['passed on whole', 'const render = await res.json();\n  return keep(render);', V1_RENDER],
    [
      'spread',
      'const render = await res.json();\n  return { ...render, shown: true };',
      { ...V1_RENDER, shown: true },
    ],
    ['read for a field', 'const render = await res.json();\n  return render.url;', V1_RENDER.url],
  ])(
    '%s: left on V1, marked, no upload planned for it made, and it still answers',
    async (_, use, answer) => {
      const source = v1Render(use);
      expect(await run(source, 'ACME-MUG-11OZ')).toEqual(answer);
      const r = rewriteTwice(source, 'render.mjs');
      expect(await run(r.output, 'ACME-MUG-11OZ')).toEqual(answer);
      expect(r.output).not.toMatch(/renderMockup\(|uploadImage\(|partnerPrint/);
      expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
      const call = r.findings.filter((f) => f.what === 'POST /render (fetch)');
      expect(call.map((f) => f.kind)).toEqual(['todo']);
      expect(call[0]?.detail).toMatch(/^V1 call left as it is: .*renderMockup gives \{ render/);
      expect(r.findings.filter((f) => f.what.startsWith('V1 response field'))).toEqual([]);
    },
  );

  it('only awaited, it is still rewritten to renderMockup, the logo uploaded first', () => {
    const r = rewriteTwice(v1Render('await res.json();\n  return true;'), 'render.mjs');
    expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
      'POST /render (fetch)',
    ]);
    expect(r.output).toContain('const logoImage = await partnerPrint.uploadImage(');
    expect(r.output).toContain('await renderMockup(partnerPrint, {');
  });
});
