// V1's GET /orders/{reference} takes the V1 order code `<store_code>-<number>` (the reference: "V1 fetches with
// GET /orders/{reference} using order_reference"); V2 has no look-up by it. The custom-identifier look-up would
// answer whichever order has that text as its custom identifier, another order. So the call is rewritten only
// when its identifier is an `Order_` reference (written out, or the callback's order_reference_v2), the callback's
// order_reference (the callback sends order_reference_v2 for the same order, which V2 fetches by) or, for V1's
// look-up by partner reference, a partner reference; any other is left on V1 and marked with the V2 way.
import { describe, expect, it } from 'vitest';
import { rewriteTwice, todos } from '../../test/rewrite.ts';

const HEAD = `const BASE = 'https://api.partner-print.example/v1';\nconst headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY ?? '' };\n`;
const read = (id: string) => `(await fetch(\`\${BASE}/orders/\${${id}}\`, { headers })).json()`;

function leftOnV1(text: string) {
  const r = rewriteTwice(text);
  const found = r.findings.filter((f) => f.what.startsWith('GET /orders/'));
  expect(
    found.map((f) => f.kind),
    text,
  ).toEqual(['todo']);
  expect(found[0]!.detail).toMatch(/V1 order code/);
  expect(found[0]!.detail).toMatch(/order_reference_v2/);
  expect(found[0]!.detail).toMatch(/mapping of V1 codes/);
  expect(r.output).not.toMatch(/\.orderReference\(/);
  return r;
}

function rewritten(text: string, adapterCall: RegExp) {
  const r = rewriteTwice(text);
  expect(
    r.findings.filter((f) => f.what.startsWith('GET /orders')).map((f) => f.kind),
    text,
  ).toEqual(['rewritten']);
  expect(r.output).toMatch(adapterCall);
  return r;
}

describe('the order identifier of a V1 GET /orders/{reference}', () => {
  it('the order_reference of a V1 POST /orders answer (a V1 code) is not rewritten', () => {
    leftOnV1(
      `${HEAD}export async function placeAndRead(body: unknown) {\n  const created = await (await fetch(\`\${BASE}/orders\`, { method: 'POST', headers, body: JSON.stringify(body) })).json();\n  const order = await ${read('created.order_reference')};\n  return order.order_reference;\n}\n`,
    );
  });

  it("the legacy callback's order_reference is read as order_reference_v2, which names the same order", () => {
    // The reference: V1 fetches with GET /orders/{reference} using order_reference, V2 with
    // GET /orders/{orderReference} using order_reference_v2; the callback sends both. (This test asserted the call
    // was left on V1, marked.)
    const handler = (body: string, params = 'req: { query: Record<string, string> }') =>
      `${HEAD}export async function onCallback(${params}) {\n${body}  return order.order_reference;\n}\n`;
    for (const [body, params, output] of [
      [
        `  const code = req.query.order_reference;\n  const order = await ${read('code')};\n`,
        undefined,
        'const code = req.query.order_reference_v2;',
      ],
      [
        `  const order = await ${read('req.query.order_reference')};\n`,
        undefined,
        'orderReference(req.query.order_reference_v2)',
      ],
      [
        `  const order = await ${read("encodeURIComponent(url.searchParams.get('order_reference')!)")};\n`,
        'url: URL',
        "orderReference(url.searchParams.get('order_reference_v2')!)",
      ],
      [
        `  const { order_reference } = request.query as Record<string, string>;\n  const order = await ${read('order_reference')};\n`,
        'request: { query: unknown }',
        'const { order_reference_v2: order_reference } = request.query as Record<string, string>;',
      ],
      // With a fallback (`?? ''`, `|| ''`): kept on the switched read.
      [
        `  const code = url.searchParams.get('order_reference') ?? '';\n  const order = await ${read('code')};\n`,
        'url: URL',
        "const code = url.searchParams.get('order_reference_v2') ?? '';",
      ],
      [
        `  const order = await ${read("url.searchParams.get('order_reference') || ''")};\n`,
        'url: URL',
        "orderReference(url.searchParams.get('order_reference_v2') || '')",
      ],
    ] as const) {
      const r = rewritten(handler(body, params), /partnerPrintV1\.orderReference\(/);
      expect(r.output).toContain(output);
      // No read of the V1 code is left.
      expect(r.output).not.toMatch(/\.order_reference\b|'order_reference'|\{ order_reference[ :,]/);
      expect(r.findings.map((f) => [f.kind, f.what]).sort()).toEqual([
        ['rewritten', 'GET /orders/… (fetch)'],
        ['rewritten', 'legacy callback: order_reference'],
      ]);
      expect(r.again.findings).toEqual([]);
    }
  });

  it("the callback's order_reference also logged or stored: kept, and the V2 read reads order_reference_v2 beside it", () => {
    for (const [body, params, kept, v2] of [
      [
        `  const code = req.query.order_reference;\n  console.log('order updated', code);\n  db.save({ code });\n  const order = await ${read('code')};\n`,
        'req: { query: Record<string, string> }, db: { save(o: object): void }',
        'const code = req.query.order_reference;',
        'orderReference(req.query.order_reference_v2)',
      ],
      [
        `  const code = url.searchParams.get('order_reference');\n  console.log(code);\n  const order = await ${read('code')};\n`,
        'url: URL',
        "const code = url.searchParams.get('order_reference');",
        "orderReference(url.searchParams.get('order_reference_v2'))",
      ],
      [
        `  const code = url.searchParams.get('order_reference') ?? '';\n  console.log(code);\n  const order = await ${read('code')};\n`,
        'url: URL',
        "const code = url.searchParams.get('order_reference') ?? '';",
        "orderReference(url.searchParams.get('order_reference_v2') ?? '')",
      ],
      [
        `  const { order_reference: code } = request.query as Record<string, string>;\n  console.log(code);\n  const order = await ${read('code')};\n`,
        'request: { query: unknown }',
        'const { order_reference: code } = request.query as Record<string, string>;',
        'orderReference((request.query as Record<string, string>).order_reference_v2)',
      ],
    ] as const) {
      const r = rewritten(
        `${HEAD}export async function onCallback(${params}) {\n${body}  return order.order_reference;\n}\n`,
        /partnerPrintV1\.orderReference\(/,
      );
      expect(r.output).toContain(kept);
      expect(r.output).toContain(v2);
      // The V1 code kept on purpose beside order_reference_v2: no TODO, now or on a rerun.
      expect(todos(r.output)).toBe(0);
      expect(
        r.findings.filter((f) => f.what === 'legacy callback: order_reference').map((f) => f.detail),
      ).toEqual([
        expect.stringMatching(
          /kept \(its V1 code is used otherwise\); the V2 order read reads .*order_reference_v2/,
        ),
      ]);
      expect(r.again.findings).toEqual([]);
    }
  });

  it("the read beside is not written where the query's name is another binding at the call: a parameter, a `var` of a function between (from any block of it)", () => {
    for (const inner of [
      'async (req: unknown) => {\n',
      "async () => {\n    if (Math.random()) { var req = { query: { order_reference_v2: 'Order_x' } }; }\n",
    ]) {
      const r = rewriteTwice(
        `${HEAD}export async function onCallback(req: { query: Record<string, string> }) {\n  const code = req.query.order_reference;\n  console.log(code);\n  return (${inner}    const order = await ${read('code')};\n    return order.order_reference;\n  })(null);\n}\n`,
      );
      expect(r.output, inner).not.toContain('req.query.order_reference_v2');
      expect(r.output, inner).toContain('const code = req.query.order_reference;');
      expect(r.findings.filter((f) => f.what.startsWith('GET /orders/')).map((f) => f.kind)).toEqual([
        'todo',
      ]);
    }
  });

  it('a typed query gets order_reference_v2 beside order_reference in the type the file writes, so the switched read type-checks', () => {
    for (const [params, body, types] of [
      [
        'req: { query: { order_reference: string } }',
        `  const order = await ${read('req.query.order_reference')};\n`,
        ['req: { query: { order_reference: string; order_reference_v2: string } }'],
      ],
      [
        'req: { query: unknown }',
        `  const { order_reference: code } = req.query as { order_reference?: string, shop: string };\n  const order = await ${read('code')};\n`,
        ['req.query as { order_reference?: string, order_reference_v2?: string, shop: string }'],
      ],
      [
        'req: Req',
        `  const code = req.query.order_reference;\n  console.log(code);\n  const order = await ${read('code')};\n`,
        [
          'type Req = { query: Query };',
          'interface Query {\n  order_reference: string;\n  order_reference_v2: string;\n}',
        ],
      ],
    ] as const) {
      const r = rewritten(
        `interface Query {\n  order_reference: string;\n}\ntype Req = { query: Query };\n${HEAD}export async function onCallback(${params}) {\n${body}  return order.order_reference;\n}\n`,
        /partnerPrintV1\.orderReference\(/,
      );
      for (const t of types) expect(r.output).toContain(t);
      // Once: not in the other types of the file.
      expect(r.output.match(/order_reference_v2\??: string/g)).toHaveLength(1);
    }
  });

  it('only the type the query flows through is widened; a type of the file that also types other values is marked instead', () => {
    for (const [params, widened, left] of [
      [
        'req: { query: { order_reference: string }; body: { order_reference: string } }',
        'query: { order_reference: string; order_reference_v2: string }',
        'body: { order_reference: string } }',
      ],
      [
        "req: import('express').Request<Record<string, string>, unknown, { order_reference: string }, { order_reference: string }>",
        'unknown, { order_reference: string }, { order_reference: string; order_reference_v2: string }>',
        'unknown, { order_reference: string }, {',
      ],
    ] as const) {
      const r = rewritten(
        `${HEAD}export async function onCallback(${params}) {\n  const order = await ${read('req.query.order_reference')};\n  return order.order_reference;\n}\n`,
        /partnerPrintV1\.orderReference\(/,
      );
      expect(r.output, params).toContain(widened);
      expect(r.output, params).toContain(left);
      expect(r.output.match(/order_reference_v2: string/g)).toHaveLength(1);
      expect(todos(r.output)).toBe(0);
    }
    // `Query` also types a stored row: order_reference_v2 would be required of it too. Marked, not widened.
    for (const also of ['export function save(row: Query) {\n  return row;\n}\n', 'export ']) {
      const text = `${also.startsWith('export function') ? '' : also}interface Query {\n  order_reference: string;\n}\n${also.startsWith('export function') ? also : ''}${HEAD}export async function onCallback(req: { query: Query }) {\n  const order = await ${read('req.query.order_reference')};\n  return order.order_reference;\n}\n`;
      const r = rewriteTwice(text);
      expect(r.output, also).toContain('orderReference(req.query.order_reference_v2)');
      expect(r.output, also).toContain('interface Query {\n  order_reference: string;\n}');
      expect(r.output).not.toMatch(/order_reference_v2: string/);
      const todo = r.findings.filter((f) => f.kind === 'todo');
      expect(todo.map((f) => f.what)).toEqual(['legacy callback: query type']);
      expect(todo[0]!.detail).toMatch(
        /query typed by `Query` of this file, which types other values too: add it there/,
      );
    }
  });

  it('a type of the file named by several callbacks, each as the query it reads order_reference of: widened once; a use as another value marks it', () => {
    const QUERY = 'interface Query {\n  order_reference: string;\n}\n';
    const handler = (name: string, params: string, id = 'req.query.order_reference') =>
      `export async function ${name}(${params}) {\n  const order = await ${read(id)};\n  return order.order_reference;\n}\n`;
    for (const [second, also] of [
      [handler('onOther', 'req: { query: Query }'), ''],
      // Express's Request<…, …, …, Query>, a cast of the query, a destructuring of it.
      [
        handler('onOther', "req: import('express').Request<Record<string, string>, unknown, unknown, Query>"),
        '',
      ],
      [handler('onOther', 'req: { query: unknown }', '(req.query as Query).order_reference'), ''],
      [
        handler('onOther', 'req: { query: Query }'),
        'export function onThird(req: { query: Query }) {\n  const { order_reference } = req.query;\n  console.log(order_reference);\n}\n',
      ],
    ] as const) {
      const r = rewriteTwice(
        `${QUERY}${HEAD}${handler('onCallback', 'req: { query: Query }')}${second}${also}`,
      );
      expect(r.output, second).toContain(
        'interface Query {\n  order_reference: string;\n  order_reference_v2: string;\n}',
      );
      expect(r.output.match(/order_reference_v2: string/g)).toHaveLength(1);
      expect(r.findings.filter((f) => f.what === 'legacy callback: query type')).toEqual([]);
    }
    // A use that is not a query the file's callbacks read order_reference of: marked, not widened.
    for (const other of [
      'export function save(row: Query) {\n  return row;\n}\n',
      'export function shop(req: { query: Query }) {\n  return req.query;\n}\n',
      'export const sample: Query = { order_reference: "ACME1-1" };\n',
      'export function body(req: { body: Query }) {\n  return req.body.order_reference;\n}\n',
    ]) {
      const r = rewriteTwice(
        `${QUERY}${HEAD}${handler('onCallback', 'req: { query: Query }')}${handler('onOther', 'req: { query: Query }')}${other}`,
      );
      expect(r.output, other).toContain('orderReference(req.query.order_reference_v2)');
      expect(r.output, other).toContain('interface Query {\n  order_reference: string;\n}');
      const todo = r.findings.filter((f) => f.what === 'legacy callback: query type');
      expect(todo.length, other).toBeGreaterThan(0);
      expect(todo[0]!.detail).toMatch(/`Query` of this file, which types other values too/);
    }
  });

  it('a query typed by a type another module of the project writes: the read of order_reference_v2 marked, to add it there', () => {
    const r = rewriteTwice(
      `import type { CallbackQuery } from './types';\nimport type { Request } from 'express';\n${HEAD}export async function onCallback(req: { query: CallbackQuery }, other: Request) {\n  const order = await ${read('req.query.order_reference')};\n  const again = await ${read('other.query.order_reference')};\n  return [order.order_reference, again.order_reference];\n}\n`,
    );
    expect(r.output).toContain('orderReference(req.query.order_reference_v2)');
    // Once: a package's type (Express's Request, whose query takes any key) is not marked.
    expect(r.findings.filter((f) => f.kind === 'todo').map((f) => [f.what, f.line])).toEqual([
      ['legacy callback: query type', 6],
    ]);
    expect(r.findings.find((f) => f.kind === 'todo')!.detail).toMatch(
      /query typed by `CallbackQuery` of \.\/types: add it there beside order_reference/,
    );
    expect(todos(r.output)).toBe(1);
    // A type of the file with order_reference on the way (a cast) is widened, and that is enough: not marked.
    const cast = rewriteTwice(
      `import type { Req } from './types';\n${HEAD}export async function onCallback(req: Req) {\n  const order = await ${read('(req.query as { order_reference: string }).order_reference')};\n  return order.order_reference;\n}\n`,
    );
    expect(cast.output).toContain(
      'orderReference((req.query as { order_reference: string; order_reference_v2: string }).order_reference_v2)',
    );
    expect(todos(cast.output)).toBe(0);
  });

  it('a query typed through a namespace import or a path alias (tsconfig paths): marked, to add order_reference_v2 there', () => {
    for (const [imports, params, named] of [
      [
        "import type * as T from './types';",
        'req: { query: T.CallbackQuery }',
        '`T.CallbackQuery` of ./types',
      ],
      [
        "import type * as T from '@app/types';",
        'req: { query: T.CallbackQuery }',
        '`T.CallbackQuery` of @app/types',
      ],
      [
        "import type { CallbackQuery } from '@app/types';",
        'req: { query: CallbackQuery }',
        '`CallbackQuery` of @app/types',
      ],
      [
        "import type { Request } from 'express';\nimport type { CallbackQuery } from '~/types';",
        'req: Request<Record<string, string>, unknown, unknown, CallbackQuery>',
        '`CallbackQuery` of ~/types',
      ],
      [
        "import type { Request } from 'express';\nimport type * as T from '@app/types';",
        'req: Request',
        '`T.CallbackQuery` of @app/types',
      ],
    ] as const) {
      const cast = params === 'req: Request' ? ' as T.CallbackQuery' : '';
      const r = rewriteTwice(
        `${imports}\n${HEAD}export async function onCallback(${params}) {\n  const order = await ${read(`(req.query${cast}).order_reference`)};\n  return order.order_reference;\n}\n`,
      );
      expect(r.output, params).toMatch(/orderReference\(\(?req\.query.*\)?\.order_reference_v2\)/);
      const todo = r.findings.filter((f) => f.kind === 'todo');
      expect(
        todo.map((f) => f.what),
        params,
      ).toEqual(['legacy callback: query type']);
      expect(todo[0]!.detail).toContain(`query typed by ${named}: add it there`);
      expect(todos(r.output)).toBe(1);
    }
  });

  it("the callback's order_reference where its query may be another object at the call, or bound by a let: left on V1", () => {
    // `req` of the arrow is not the handler's.
    leftOnV1(
      `${HEAD}export async function onCallback(req: { query: Record<string, string> }, reqs: Array<{ query: Record<string, string> }>) {\n  const code = req.query.order_reference;\n  console.log(code);\n  return Promise.all(reqs.map(async (req) => (await ${read('code')}).order_reference));\n}\n`,
    );
    leftOnV1(
      `${HEAD}export async function onCallback(req: { query: Record<string, string> }) {\n  let code = req.query.order_reference;\n  const order = await ${read('code')};\n  return order.order_reference;\n}\n`,
    );
  });

  it('a V1 code written out, or a parameter of unknown kind, is not rewritten', () => {
    leftOnV1(
      `${HEAD}export async function f() {\n  const order = await (await fetch(BASE + '/orders/ACME1-100001', { headers })).json();\n  return order.order_reference;\n}\n`,
    );
    leftOnV1(
      `${HEAD}export async function f(ref: string) {\n  const order = await ${read('encodeURIComponent(ref)')};\n  return order.order_reference;\n}\n`,
    );
  });

  it("an Order_ reference (the callback's order_reference_v2, one written out) is rewritten", () => {
    rewritten(
      `${HEAD}export async function onCallback(req: { query: Record<string, string> }) {\n  const ref = req.query.order_reference_v2;\n  const order = await ${read('ref')};\n  return order.order_reference;\n}\n`,
      /orderReference: await partnerPrintV1\.orderReference\(ref\)/,
    );
    rewritten(
      `${HEAD}export async function onCallback(url: URL) {\n  const order = await ${read("url.searchParams.get('order_reference_v2')")};\n  return order.order_reference;\n}\n`,
      /partnerPrintV1\.orderReference\(url\.searchParams\.get\('order_reference_v2'\)\)/,
    );
    rewritten(
      `${HEAD}export async function onCallback(url: URL) {\n  const ref = url.searchParams.get('order_reference_v2') ?? '';\n  const order = await ${read('ref')};\n  return order.order_reference;\n}\n`,
      /partnerPrintV1\.orderReference\(ref\)/,
    );
    rewritten(
      `${HEAD}const SAMPLE = 'Order_01HZX3K9QW8E7R6T5Y4U3I2O1P';\nexport async function f() {\n  const order = await ${read('SAMPLE')};\n  return order.order_reference;\n}\n`,
      // Written out (through a constant), it is the path parameter itself: nothing to resolve.
      /orderReference: 'Order_01HZX3K9QW8E7R6T5Y4U3I2O1P' \}/,
    );
  });

  it('destructured from the query: order_reference_v2 is rewritten, order_reference (or a let) is not', () => {
    const handler = (pattern: string, kind = 'const') =>
      `${HEAD}export async function onCallback(request: { query: unknown }) {\n  ${kind} { ${pattern} } = request.query as Record<string, string>;\n  const order = await ${read('ref')};\n  return order.order_reference;\n}\n`;
    rewritten(handler('order_reference_v2: ref'), /partnerPrintV1\.orderReference\(ref\)/);
    // order_reference names the same order: read as order_reference_v2 (this asserted it was left on V1).
    rewritten(handler('order_reference: ref'), /partnerPrintV1\.orderReference\(ref\)/);
    leftOnV1(handler('order_reference_v2: ref', 'let'));
    leftOnV1(handler('order_reference: ref', 'let'));
  });

  it("V1's look-up by partner reference goes through orderReferenceByPartnerReference", () => {
    rewritten(
      `${HEAD}export async function f(shopId: string) {\n  const order = await (await fetch(\`\${BASE}/orders?partner_reference=\${encodeURIComponent(shopId)}\`, { headers })).json();\n  return order.order_reference;\n}\n`,
      /partnerPrintV1\.orderReferenceByPartnerReference\(shopId\)/,
    );
  });
});

describe("an earlier run's orderReference(x)", () => {
  // What versions before this one wrote for V1's GET /orders/{reference} and the look-up by partner reference alike.
  const earlier = (id: string, setup = '') =>
    `import { createClient } from '@partner-print/client';\nimport { createV1Adapter } from '@partner-print/migrate';\nconst partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });\nconst partnerPrintV1 = createV1Adapter(partnerPrint);\n${setup}export async function f(ref: string, req: { query: Record<string, string> }) {\n  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(${id}) } } })).order;\n  return order.reference;\n}\n`;

  it('is marked where x may be a V1 order code or a partner reference, with both ways; a rerun adds nothing', () => {
    const r = rewriteTwice(earlier('ref'));
    expect(r.findings.map((f) => [f.kind, f.what])).toEqual([['todo', 'order look-up of an earlier run']]);
    expect(r.findings[0]!.detail).toMatch(/orderReferenceByPartnerReference/);
    expect(r.findings[0]!.detail).toMatch(/order_reference_v2/);
    expect(r.output).toMatch(/TODO\(partner-print v2\): an earlier version of this tool wrote this look-up/);
    expect(r.again.findings.map((f) => f.kind)).toEqual(['todo']);
  });

  it("is left alone where x is an Order_ reference (the callback's order_reference_v2)", () => {
    const r = rewriteTwice(earlier('req.query.order_reference_v2'));
    expect(r.findings).toEqual([]);
    expect(r.changed).toBe(false);
  });
});
