// The legacy callback's order_reference is the V1 code `<store_code>-<number>` for V1 and V2 orders alike, and
// order_reference_v2 the `Order_` reference (the reference's table of the callback's parameters). A read of
// order_reference becomes a read of order_reference_v2 only where its value is used as the Order_ reference of V2
// order calls alone; a log line, a stored value, a comparison or a V1 call keeps the V1 code, and the read is marked.
import { describe, expect, it } from 'vitest';
import { rewriteTwice } from '../../test/rewrite.ts';

/** A file whose one V1 call (the look-up by partner reference) is rewritten. */
const V1_CALL = `const BASE = 'https://api.partner-print.example/v1';\nconst headers = { 'X-Partner-Code': 'ACME1' };\nexport async function byShopId(id: string) {\n  return (await (await fetch(\`\${BASE}/orders?partner_reference=\${id}\`, { headers })).json()).order_reference;\n}\n`;
/** What an earlier run wrote: the V2 client and the V1 adapter of the file. */
const EARLIER = `import { createClient } from '@partner-print/client';\nimport { createV1Adapter } from '@partner-print/migrate';\nconst partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });\nconst partnerPrintV1 = createV1Adapter(partnerPrint);\n`;
const v2Read = (id: string) =>
  `(await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(${id}) } } })).order`;

const callbackFindings = (r: ReturnType<typeof rewriteTwice>) =>
  r.findings.filter((f) => f.what === 'legacy callback: order_reference');

/** The read is left reading order_reference, marked once with the V2 way; a rerun adds nothing. */
function kept(text: string, read: string) {
  const r = rewriteTwice(text);
  expect(r.output, text).toContain(read);
  expect(r.output.replace(/\/\/ TODO.*$/gm, '')).not.toContain('order_reference_v2');
  const found = callbackFindings(r);
  expect(found.map((f) => f.kind)).toEqual(['todo']);
  expect(found[0]!.detail).toMatch(/read order_reference_v2 \(the Order_ reference/);
  expect(found[0]!.detail).toMatch(/order_reference stays the V1 order code \(<store_code>-<number>\)/);
  expect(r.output).toMatch(/TODO\(partner-print v2\): read order_reference_v2/);
  expect(callbackFindings({ ...r.again, again: r.again }).map((f) => f.kind)).toEqual(['todo']);
  return r;
}

describe("the legacy callback's order_reference", () => {
  it('logged and stored, in a file whose V1 calls are all rewritten: left reading the V1 code, marked', () => {
    const handler = `export function onCallback(req: { query: Record<string, string> }, db: { save(o: object): void }) {\n  const code = req.query.order_reference;\n  console.log('order updated', code);\n  db.save({ v1Code: code });\n}\n`;
    const r = kept(`${V1_CALL}${handler}`, 'const code = req.query.order_reference;');
    expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
      'GET /orders?partner_reference=… (fetch)',
    ]);
    // No V1 call at all: the same.
    kept(handler, 'const code = req.query.order_reference;');
  });

  it('compared, parsed, returned, destructured or read through searchParams: left, marked', () => {
    kept(
      `export function isAcme(req: { query: { order_reference: string } }) {\n  return req.query.order_reference.startsWith('ACME1-');\n}\n`,
      'req.query.order_reference.startsWith',
    );
    kept(
      `export function number(url: URL) {\n  const code = url.searchParams.get('order_reference') ?? '';\n  return code.slice(code.lastIndexOf('-') + 1);\n}\n`,
      "url.searchParams.get('order_reference')",
    );
    kept(
      `export function codes(request: { query: unknown }, seen: Set<string>) {\n  const { order_reference } = request.query as Record<string, string>;\n  seen.add(order_reference);\n}\n`,
      'const { order_reference } = request.query',
    );
  });

  it("used only as the Order_ reference of V2 order calls (an earlier run's orderReference, a path's orderReference): read as order_reference_v2", () => {
    for (const [handler, read] of [
      [
        `  const ref = req.query.order_reference;\n  const order = ${v2Read('ref')};\n`,
        'req.query.order_reference_v2;',
      ],
      [
        `  const order = ${v2Read('req.query.order_reference')};\n`,
        'orderReference(req.query.order_reference_v2)',
      ],
      [
        `  const { order_reference: ref } = req.query;\n  const order = ${v2Read('ref')};\n`,
        'const { order_reference_v2: ref } = req.query;',
      ],
      [
        `  const ref = req.query.order_reference;\n  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: ref } } })).order;\n`,
        'req.query.order_reference_v2;',
      ],
    ] as const) {
      const text = `${EARLIER}export async function onCallback(req: { query: Record<string, string> }) {\n${handler}  return order.reference;\n}\n`;
      const r = rewriteTwice(text);
      expect(r.output, handler).toContain(read);
      // Now an Order_ reference, the earlier run's look-up is not marked either.
      expect(r.findings.map((f) => [f.kind, f.what])).toEqual([
        ['rewritten', 'legacy callback: order_reference'],
      ]);
      expect(r.findings[0]!.detail).toMatch(/→ order_reference_v2 \(the Order_ reference V2 calls take\)/);
      expect(r.again.findings).toEqual([]);
    }
  });

  it('in JavaScript typed by JSDoc (@param, @typedef, @property, @type) naming order_reference: read as order_reference_v2, added beside it in the comment', () => {
    for (const [jsdoc, read, widened] of [
      [
        '/** @param {{ query: { order_reference: string } }} req */\n',
        'req.query.order_reference',
        '/** @param {{ query: { order_reference: string, order_reference_v2: string } }} req */\n',
      ],
      [
        '/** @typedef {{ order_reference?: string }} Query */\n/** @param {{ query: Query }} req */\n',
        'req.query.order_reference',
        '/** @typedef {{ order_reference?: string, order_reference_v2?: string }} Query */\n',
      ],
      [
        '/**\n * @typedef {Object} Query\n * @property {string} order_reference The V1 code.\n */\n/** @param {{ query: Query }} req */\n',
        'req.query.order_reference',
        ' * @property {string} order_reference The V1 code.\n * @property {string} order_reference_v2\n */\n',
      ],
      [
        '/**\n * The callback.\n * @param {Object} req\n * @param {{ order_reference?: string; shop: string }} req.query\n */\n',
        'req.query.order_reference',
        ' * @param {{ order_reference?: string; order_reference_v2?: string; shop: string }} req.query\n',
      ],
      [
        '/**\n * @param {Object} req\n * @param {Object} req.query\n * @param {string} [req.query.order_reference]\n */\n',
        'req.query.order_reference',
        ' * @param {string} [req.query.order_reference]\n * @param {string} [req.query.order_reference_v2]\n */\n',
      ],
      [
        '/**\n * @param {{\n *   query: {\n *     shop: string;\n *     order_reference: string;\n *   }\n * }} req\n */\n',
        'req.query.order_reference',
        ' *     order_reference: string;\n *     order_reference_v2: string;\n *   }\n',
      ],
      [
        "/** @param {import('express').Request<Record<string, string>, unknown, { order_reference: string }, { order_reference: string }>} req */\n",
        'req.query.order_reference',
        'unknown, { order_reference: string }, { order_reference: string, order_reference_v2: string }>} req */',
      ],
      [
        '',
        '/** @type {{ order_reference: string }} */ (req.query).order_reference',
        '/** @type {{ order_reference: string, order_reference_v2: string }} */ (req.query).order_reference_v2',
      ],
    ] as const) {
      const text = `${EARLIER}${jsdoc}export async function onCallback(req) {\n  const order = ${v2Read(read)};\n  return order.reference;\n}\n`;
      const r = rewriteTwice(text, 'a.js');
      expect(r.output, jsdoc).toMatch(/orderReference\(.*\.order_reference_v2\)/);
      expect(r.output, jsdoc).toContain(widened);
      expect(r.output.match(/order_reference_v2\??[:}\]]|order_reference_v2\n/g), jsdoc).toHaveLength(1);
      expect(
        r.findings.map((f) => [f.kind, f.what]),
        jsdoc,
      ).toEqual([['rewritten', 'legacy callback: order_reference']]);
    }
    // Untyped JavaScript, a package's request type (Express's Request, whose query takes any key), or a JSDoc type
    // that has order_reference_v2 already: nothing to add.
    for (const jsdoc of [
      '',
      "/** @param {import('express').Request} req */\n",
      '/** @param {{ query: { order_reference: string, order_reference_v2: string } }} req */\n',
    ]) {
      const r = rewriteTwice(
        `${EARLIER}${jsdoc}export async function onCallback(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n`,
        'a.js',
      );
      expect(r.findings.map((f) => f.kind)).toEqual(['rewritten']);
      expect(r.output).toContain(jsdoc);
    }
  });

  it('in a CRLF file or one with a byte order mark, the query type is widened as in an LF file (offsets are the parsed text’s)', () => {
    const handler = (type: string, read = 'req.query.order_reference') =>
      `${V1_CALL.replace('byShopId', 'other')}export const onCallback = async (req: { query: ${type} }) => {\n  const r = await fetch(\`https://api.partner-print.example/v1/orders/\${${read}}\`, { headers });\n  const o = await r.json();\n  console.log(req.query.order_reference);\n  return o.order_reference;\n};\n`;
    const cases: Array<[string, string]> = [
      [handler('{ order_reference: string }'), 'a.ts'],
      [handler('{\n    shop: string;\n    order_reference: string;\n  }'), 'a.ts'],
      [handler('{ order_reference?: string }', "req.query.order_reference ?? ''"), 'a.ts'],
      [
        `${EARLIER}/**\n * @param {{ query: { order_reference: string } }} req\n */\nexport async function onCallback(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n`,
        'a.js',
      ],
    ];
    for (const [lf, file] of cases) {
      const plain = rewriteTwice(lf, file);
      expect(plain.error, lf).toBeUndefined();
      expect(plain.output, lf).toMatch(/order_reference_v2\??: string/);
      for (const [name, text, expected] of [
        ['CRLF', lf.replace(/\n/g, '\r\n'), plain.output.replace(/\n/g, '\r\n')],
        ['BOM', `\uFEFF${lf}`, `\uFEFF${plain.output}`],
        [
          'BOM and CRLF',
          `\uFEFF${lf.replace(/\n/g, '\r\n')}`,
          `\uFEFF${plain.output.replace(/\n/g, '\r\n')}`,
        ],
      ]) {
        const r = rewriteTwice(text!, file);
        expect(r.error, `${name}: ${lf}`).toBeUndefined();
        expect(r.output, `${name}: ${lf}`).toBe(expected);
        expect(r.findings, name).toEqual(plain.findings);
      }
    }
  });

  it("in JavaScript, only the query's JSDoc type is widened; a typedef that types another value too is marked", () => {
    // The request's body names order_reference too: left as it is.
    const r = rewriteTwice(
      `${EARLIER}/** @param {{ body: { order_reference: string }, query: { order_reference: string } }} req */\nexport async function onCallback(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n`,
      'a.js',
    );
    expect(r.output).toContain(
      '/** @param {{ body: { order_reference: string }, query: { order_reference: string, order_reference_v2: string } }} req */',
    );
    expect(r.findings.map((f) => f.kind)).toEqual(['rewritten']);
    // A type of another module of the project: marked to add it there.
    const imported = rewriteTwice(
      `${EARLIER}/** @param {{ query: import('./types').Query }} req */\nexport async function onCallback(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n`,
      'a.js',
    );
    expect(imported.findings.find((f) => f.kind === 'todo')?.detail).toMatch(
      /query typed by `import\('\.\/types'\)\.Query`: add it there/,
    );
    // `Query` also types a stored row: order_reference_v2 would be required of it too.
    for (const other of [
      '/** @param {Query} row */\nexport function save(row) {\n  return row;\n}\n',
      '/** @type {Query} */\nexport const sample = { order_reference: "ACME1-1" };\n',
    ]) {
      const m = rewriteTwice(
        `${EARLIER}/** @typedef {{ order_reference: string }} Query */\n/** @param {{ query: Query }} req */\nexport async function onCallback(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n${other}`,
        'a.js',
      );
      expect(m.output, other).toContain('orderReference(req.query.order_reference_v2)');
      expect(m.output, other).toContain('/** @typedef {{ order_reference: string }} Query */');
      expect(m.findings.map((f) => [f.kind, f.what]).sort()).toEqual([
        ['rewritten', 'legacy callback: order_reference'],
        ['todo', 'legacy callback: query type'],
      ]);
      expect(m.findings.find((f) => f.kind === 'todo')!.detail).toMatch(
        /`Query` of this file, which types other values too/,
      );
    }
    // Two callbacks each reading order_reference of a query typed by it: widened once.
    const two = rewriteTwice(
      `${EARLIER}/** @typedef {{ order_reference: string }} Query */\n/** @param {{ query: Query }} req */\nexport async function onCallback(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n/** @param {{ query: Query }} req */\nexport async function onOther(req) {\n  const order = ${v2Read('req.query.order_reference')};\n  return order.reference;\n}\n`,
      'a.js',
    );
    expect(two.output).toContain(
      '/** @typedef {{ order_reference: string, order_reference_v2: string }} Query */',
    );
    expect(two.findings.filter((f) => f.kind === 'todo')).toEqual([]);
  });

  it('with a written-out fallback (?? null, ?? undefined, || a string, a destructuring default): read as order_reference_v2, the fallback kept', () => {
    for (const [read, switched] of [
      ['const ref = req.query.order_reference ?? null;', 'const ref = req.query.order_reference_v2 ?? null;'],
      [
        'const ref = req.query.order_reference ?? undefined;',
        'const ref = req.query.order_reference_v2 ?? undefined;',
      ],
      [
        "const ref = req.query.order_reference || 'unknown';",
        "const ref = req.query.order_reference_v2 || 'unknown';",
      ],
      [
        "const { order_reference: ref = '' } = req.query;",
        "const { order_reference_v2: ref = '' } = req.query;",
      ],
      [
        "const { order_reference: ref = 'unknown' } = req.query;",
        "const { order_reference_v2: ref = 'unknown' } = req.query;",
      ],
    ] as const) {
      const r = rewriteTwice(
        `${EARLIER}export async function onCallback(req: { query: Record<string, string> }) {\n  ${read}\n  const order = ${v2Read('ref')};\n  return order.reference;\n}\n`,
      );
      expect(r.output, read).toContain(switched);
      expect(r.findings.map((f) => [f.kind, f.what])).toEqual([
        ['rewritten', 'legacy callback: order_reference'],
      ]);
      // A V1 order read by it: rewritten, reading order_reference_v2 with the same fallback.
      const v1 = rewriteTwice(
        `${V1_CALL}export async function onCallback(req: { query: Record<string, string> }) {\n  ${read}\n  return (await (await fetch(\`\${BASE}/orders/\${ref}\`, { headers })).json()).order_reference;\n}\n`,
      );
      expect(v1.output, read).toContain(switched);
      expect(v1.output).toContain('orderReference(ref)');
      expect(v1.findings.filter((f) => f.kind === 'todo')).toEqual([]);
    }
    // Logged too: the read keeps the V1 code, the V2 order read reads order_reference_v2 with the same fallback.
    for (const [read, v2] of [
      [
        "const ref = req.query.order_reference || 'unknown';",
        "orderReference(req.query.order_reference_v2 || 'unknown')",
      ],
      [
        "const { order_reference: ref = 'unknown' } = req.query;",
        "orderReference(req.query.order_reference_v2 ?? 'unknown')",
      ],
    ] as const) {
      const r = rewriteTwice(
        `${V1_CALL}export async function onCallback(req: { query: Record<string, string> }) {\n  ${read}\n  console.log(ref);\n  return (await (await fetch(\`\${BASE}/orders/\${ref}\`, { headers })).json()).order_reference;\n}\n`,
      );
      expect(r.output, read).toContain(read);
      expect(r.output, read).toContain(v2);
    }
    // A fallback that is another value, or a parameter's default (a caller may pass another value): marked.
    for (const [params, read] of [
      ['req: { query: Record<string, string> }', 'const ref = req.query.order_reference ?? req.query.code;'],
      ['req: { query: Record<string, string> }, ref = req.query.order_reference', ''],
    ] as const)
      kept(
        `${EARLIER}export async function onCallback(${params}) {\n  ${read}\n  const order = ${v2Read('ref')};\n  return order.reference;\n}\n`,
        'req.query.order_reference',
      );
  });

  it('kept beside a read of order_reference_v2 in its function (the V1 code on purpose): left, not marked', () => {
    for (const [handler, v2] of [
      [
        `  const ref = req.query.order_reference_v2;\n  console.log('order updated', req.query.order_reference);\n  const order = ${v2Read('ref')};\n`,
        'req.query.order_reference_v2;',
      ],
      // One read switched here (it goes to the V2 call alone), the other logged: the V1 code on purpose too.
      [
        `  const ref = req.query.order_reference;\n  console.log('order updated', req.query.order_reference);\n  const order = ${v2Read('ref')};\n`,
        'const ref = req.query.order_reference_v2;',
      ],
    ] as const) {
      const r = rewriteTwice(
        `${EARLIER}export async function onCallback(req: { query: Record<string, string> }) {\n${handler}  return order.reference;\n}\n`,
      );
      expect(r.output).toContain("console.log('order updated', req.query.order_reference);");
      expect(r.output).toContain(v2);
      expect(r.findings.filter((f) => f.kind === 'todo')).toEqual([]);
      expect(r.again.findings).toEqual([]);
    }
    // Another function's read of order_reference_v2 says nothing of this one.
    const other = rewriteTwice(
      `export const a = (req: { query: Record<string, string> }) => req.query.order_reference_v2;\nexport const b = (req: { query: Record<string, string> }) => console.log(req.query.order_reference);\n`,
    );
    expect(other.findings.map((f) => [f.kind, f.what, f.line])).toEqual([
      ['todo', 'legacy callback: order_reference', 2],
    ]);
  });

  it('one constant name in two functions: each binding judged on its own uses (by scope, not by name)', () => {
    const fn = (name: string, body: string) =>
      `export async function ${name}(req: { query: Record<string, string> }) {\n  const code = req.query.order_reference;\n${body}}\n`;
    const read = `  return (await (await fetch(\`\${BASE}/orders/\${code}\`, { headers })).json()).order_reference;\n`;
    // Both only the identifier of an order read: both read order_reference_v2, both calls rewritten.
    const both = rewriteTwice(`${V1_CALL}${fn('first', read)}${fn('second', read)}`);
    expect(both.output.match(/const code = req\.query\.order_reference_v2;/g)).toHaveLength(2);
    expect(both.output.match(/orderReference\(code\)/g)).toHaveLength(2);
    expect(both.findings.filter((f) => f.kind === 'todo')).toEqual([]);
    // One the identifier of an order read, the other logged: the first switched, the second left and marked.
    const apart = rewriteTwice(
      `${V1_CALL}${fn('first', read)}${fn('second', "  console.log('updated', code);\n")}`,
    );
    const [first, second] = apart.output.split('export async function second');
    expect(first).toContain('const code = req.query.order_reference_v2;');
    expect(first).toContain('orderReference(code)');
    expect(second).toContain('const code = req.query.order_reference;');
    expect(second).toMatch(/TODO\(partner-print v2\): read order_reference_v2/);
    expect(callbackFindings(apart).map((f) => [f.kind, f.line])).toEqual([
      ['rewritten', 7],
      ['todo', 11],
    ]);
    // A parameter of that name in a function inside is another binding: its log is no use of the constant.
    const inner = rewriteTwice(
      `${V1_CALL}${fn('first', `  ['a'].forEach((code) => console.log(code));\n${read}`)}`,
    );
    expect(inner.output).toContain('const code = req.query.order_reference_v2;');
    expect(inner.findings.filter((f) => f.kind === 'todo')).toEqual([]);
    // The callback's order_reference_v2 bound to one name in two functions: each an Order_ reference, both rewritten.
    const v2 = rewriteTwice(
      `${V1_CALL}${[fn('first', read), fn('second', read)].join('').replaceAll('order_reference;\n  return', 'order_reference_v2;\n  return')}`,
    );
    expect(v2.output.match(/orderReference\(code\)/g)).toHaveLength(2);
    expect(v2.findings.filter((f) => f.kind === 'todo')).toEqual([]);
    // A `var` of that name in another function, declared once there and never reassigned, read after it in the
    // block it stands in: another binding, told apart by scope; the read is switched.
    const other = (decl: string) =>
      `${V1_CALL}${fn('first', read)}export function other() {\n  ${decl}\n  return code;\n}\n`;
    expect(rewriteTwice(other("var code = 'x';")).output).toContain(
      'const code = req.query.order_reference_v2;',
    );
    // One whose binding is not certain (reassigned, declared twice, read outside the block it is declared in, so
    // perhaps unset): its scope is not followed, the read stays marked.
    for (const decl of [
      "var code = 'x';\n  code = 'y';",
      "var code = 'x';\n  var code = 'y';",
      "if (Math.random()) {\n    var code = 'x';\n  }",
    ])
      kept(other(decl), 'const code = req.query.order_reference;');
  });

  it('used by a V2 order call and logged too: left, marked, and the look-up marked as an earlier run’s', () => {
    const r = kept(
      `${EARLIER}export async function onCallback(req: { query: Record<string, string> }) {\n  const ref = req.query.order_reference;\n  console.log(ref);\n  const order = ${v2Read('ref')};\n  return order.reference;\n}\n`,
      'const ref = req.query.order_reference;',
    );
    expect(r.findings.map((f) => f.what)).toContain('order look-up of an earlier run');
  });
});
