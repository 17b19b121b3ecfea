// A V1 `GET /stock` answer used in a way whose V2 equivalent has another shape (destructured as an array,
// indexed, `.length`, returned or passed on whole, its entries used whole or read for a field V2 does not
// document) is left on V1 and marked: the rewritten module is run here, with V1 answering as it always did and
// the V2 lists coming from the sandbox, and must answer what the V1 code answered instead of throwing or reading
// undefined.

import { createClient } from '@partner-print/client';
import { describe, expect, it } from 'vitest';
import { newSandbox } from './helpers.ts';
import { rewriteTwice } from './rewrite.ts';

const V1_STOCK = [
  { sku: 'ACME-MUG-11OZ', logical_quantity: 3, physical_quantity: 5, reorder_point: 2, available: true },
];

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
async function run(code: string): Promise<unknown> {
  const sandbox = newSandbox();
  const v1Fetch = async (input: string) => {
    if (!String(input).startsWith('https://api.partner-print.example/v1/stock'))
      throw new Error(`unexpected request to ${input}`);
    return Response.json(V1_STOCK);
  };
  const v2Client = (options: { baseUrl: string }) => {
    expect(options.baseUrl).toBe('https://api.partner-print.example/v2');
    return createClient({ secretKey: sandbox.keys.primary, baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });
  };
  const body = code
    .replace(/^import \{ createClient \} from '@partner-print\/client';$/m, '')
    .replace(/^export /gm, '');
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor;
  const load = new AsyncFunction('createClient', 'fetch', 'process', `${body}\nreturn f();`);
  return load(v2Client, v1Fetch, { env: { PP_KEY: 'k' } });
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
