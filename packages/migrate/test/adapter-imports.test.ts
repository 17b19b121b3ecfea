// A rerun over a project where an earlier run's V1 adapter (`createV1Adapter(client)`) is made in one module and
// imported in another: the adapter's `orderReference(x)` there is recognised as in the module that makes it (marked
// where x may be a V1 order code, left where x is the callback's order_reference_v2, and a callback read going to it
// alone read as order_reference_v2); an import the run cannot follow to a `createV1Adapter(…)` is marked, not taken
// for one or for none.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateCode } from '../src/code/run.ts';
import { tempDir } from './helpers.ts';
import { todos } from './rewrite.ts';

const SDK = `import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
export const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
export const v1 = createV1Adapter(partnerPrint);
`;
/** A module reading an order through an adapter it imports (`adapter`, as it names it), by `id`. */
const orders = (imports: string, adapter: string, id: string) =>
  `${imports}
export async function read(ref: string, req: { query: Record<string, string> }) {
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await ${adapter}.orderReference(${id}) } } })).order;
  return order.reference;
}
`;

/** Writes the project's files, runs `code` over `run` (default: all of it) twice, and returns the findings by file. */
async function rerun(files: Record<string, string>, run: string[] = ['.']) {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const paths = run.map((p) => join(dir, p));
  const first = await migrateCode(paths, { cwd: dir, mode: 'write' });
  const after = Object.fromEntries(Object.keys(files).map((p) => [p, readFileSync(join(dir, p), 'utf8')]));
  const again = await migrateCode(paths, { cwd: dir, mode: 'write' });
  // Idempotent: the second run writes nothing and adds no TODO.
  expect(again.totals.changed).toBe(0);
  for (const p of Object.keys(files)) expect(readFileSync(join(dir, p), 'utf8')).toBe(after[p]);
  const of = (path: string) =>
    (first.files.find((f) => f.path === path)?.findings ?? []).map((f) => [f.kind, f.what]);
  return { of, after, first };
}

describe("an earlier run's adapter imported from another module of the run", () => {
  it.each([
    ['a named import', "import { partnerPrint, v1 } from './sdk';", 'v1', {}],
    [
      'a renamed import of ./sdk.js',
      "import { partnerPrint, v1 as adapter } from './sdk.js';",
      'adapter',
      {},
    ],
    ['a namespace import', "import * as sdk from './sdk';\nconst { partnerPrint } = sdk;", 'sdk.v1', {}],
    [
      'through a re-export of lib/index.ts',
      "import { partnerPrint, v1 } from './lib';",
      'v1',
      { 'lib/index.ts': "export * from './sdk';\n", 'lib/sdk.ts': SDK },
    ],
    [
      'a default export',
      "import { partnerPrint } from './sdk';\nimport v1 from './adapter';",
      'v1',
      {
        'adapter.ts':
          "import { createV1Adapter } from '@partner-print/migrate';\nimport { partnerPrint } from './sdk';\nconst adapter = createV1Adapter(partnerPrint);\nexport default adapter;\n",
      },
    ],
  ] as const)(
    '%s: its orderReference(x) is marked where x may be a V1 code, left where it is an Order_ reference',
    async (_, imports, adapter, extra) => {
      const base = { 'sdk.ts': SDK, ...extra };
      const marked = await rerun({ ...base, 'orders.ts': orders(imports, adapter, 'ref') });
      expect(marked.of('orders.ts')).toEqual([['todo', 'order look-up of an earlier run']]);
      expect(marked.after['orders.ts']).toMatch(
        /TODO\(partner-print v2\): an earlier version of this tool wrote this look-up/,
      );
      expect(todos(marked.after['orders.ts']!)).toBe(1);
      expect(marked.after['sdk.ts']).toBe(SDK);

      const proven = await rerun({
        ...base,
        'orders.ts': orders(imports, adapter, 'req.query.order_reference_v2'),
      });
      expect(proven.of('orders.ts')).toEqual([]);
      expect(proven.first.totals.changed).toBe(0);
    },
  );

  it("a callback's order_reference going only to the imported adapter's orderReference is read as order_reference_v2", async () => {
    const handler = `import { partnerPrint, v1 } from './sdk';
export async function onCallback(req: { query: Record<string, string> }) {
  const code = req.query.order_reference;
  return (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await v1.orderReference(code) } } })).order;
}
`;
    const r = await rerun({ 'sdk.ts': SDK, 'callback.ts': handler });
    expect(r.of('callback.ts')).toEqual([['rewritten', 'legacy callback: order_reference']]);
    expect(r.after['callback.ts']).toContain('const code = req.query.order_reference_v2;');
  });

  it('an import the run cannot follow (a module left out of the run, an export it does not read) is marked, saying so', async () => {
    // ./sdk is not in the run: only orders.ts is given.
    const outside = await rerun(
      { 'sdk.ts': SDK, 'orders.ts': orders("import { partnerPrint, v1 } from './sdk';", 'v1', 'ref') },
      ['orders.ts'],
    );
    expect(outside.of('orders.ts')).toEqual([['todo', 'order look-up of an earlier run']]);
    const detail = outside.first.files[0]!.findings[0]!.detail;
    expect(detail).toMatch(
      /`v1` is imported from \.\/sdk, which this run does not show to export a createV1Adapter/,
    );
    expect(detail).toMatch(/orderReferenceByPartnerReference/);
    // An adapter exported in a form this tool does not follow (exports.v1 = createV1Adapter(…)).
    const cjs = await rerun({
      'sdk.js':
        "const { createV1Adapter } = require('@partner-print/migrate');\nexports.v1 = createV1Adapter(require('./client'));\n",
      'orders.js':
        "const { v1 } = require('./sdk');\nexports.read = async (ref) => v1.orderReference(ref);\n",
    });
    expect(cjs.of('orders.js')).toEqual([['todo', 'order look-up of an earlier run']]);
  });

  it("what a module of the run shows not to be an adapter is left alone (a function, another module's export)", async () => {
    const r = await rerun({
      'sdk.ts': `${SDK}export const shop = { orderReference: (id: string) => id };\n`,
      'util.ts': 'export const cache = { orderReference: (id: string) => id };\n',
      'orders.ts':
        "import { shop } from './sdk';\nimport { cache } from './util';\nexport const f = (ref: string) => [shop.orderReference(ref), cache.orderReference(ref)];\n",
    });
    expect(r.of('orders.ts')).toEqual([]);
    expect(r.first.totals.changed).toBe(0);
  });
});

describe("a file that imports an earlier run's adapter and has V1 calls that need one", () => {
  const V1_CALLS = `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY ?? '' };
export async function place(body: unknown) {
  const created = await (await fetch(\`\${BASE}/orders\`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  return created.order_reference;
}
`;
  const LOOK = 'export const look = (ref: string) => v1.orderReference(ref);\n';

  it.each([
    [
      'a named import: the client is imported beside it',
      { 'sdk.ts': SDK, 'orders.ts': `import { v1 } from './sdk';\n${V1_CALLS}${LOOK}` },
      "import { v1, partnerPrint } from './sdk';",
      '(await partnerPrint.createOrder(await v1.toV2Order(body))).order',
    ],
    [
      'the client imported already, renamed',
      { 'sdk.ts': SDK, 'orders.ts': `import { partnerPrint as pp, v1 } from './sdk';\n${V1_CALLS}${LOOK}` },
      "import { partnerPrint as pp, v1 } from './sdk';",
      '(await pp.createOrder(await v1.toV2Order(body))).order',
    ],
    [
      'a name of the file taken: the client imported under another',
      {
        'sdk.ts': SDK,
        'orders.ts': `import { v1 } from './sdk';\nconst partnerPrint = 'ours';\nexport const name = partnerPrint;\n${V1_CALLS}${LOOK}`,
      },
      "import { v1, partnerPrint as partnerPrint2 } from './sdk';",
      '(await partnerPrint2.createOrder(await v1.toV2Order(body))).order',
    ],
    [
      "a default import of an adapter made from another module's client, that client imported too",
      {
        'sdk.ts': SDK,
        'adapter.ts':
          "import { createV1Adapter } from '@partner-print/migrate';\nimport { partnerPrint } from './sdk';\nconst adapter = createV1Adapter(partnerPrint);\nexport default adapter;\n",
        'orders.ts': `import { partnerPrint } from './sdk';\nimport v1 from './adapter';\n${V1_CALLS}${LOOK}`,
      },
      "import { partnerPrint } from './sdk';\nimport v1 from './adapter';\n",
      '(await partnerPrint.createOrder(await v1.toV2Order(body))).order',
    ],
    [
      'a namespace import',
      {
        'sdk.ts': SDK,
        'orders.ts': `import * as sdk from './sdk';\n${V1_CALLS}${LOOK.replace('v1.', 'sdk.v1.')}`,
      },
      "import * as sdk from './sdk';",
      '(await sdk.partnerPrint.createOrder(await sdk.v1.toV2Order(body))).order',
    ],
    [
      'a require, through a re-export',
      {
        'lib/index.js': "module.exports = require('./sdk');\n",
        'lib/sdk.js': `const { createClient } = require('@partner-print/client');\nconst { createV1Adapter } = require('@partner-print/migrate');\nconst partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });\nconst v1 = createV1Adapter(partnerPrint);\nmodule.exports = { partnerPrint, v1 };\n`,
        'orders.js': `const { v1 } = require('./lib');\n${V1_CALLS.replace('body: unknown', 'body')
          .replace(/^export /gm, 'exports.place = ')
          .replace('exports.place = async function place', 'exports.place = async function place')}`,
      },
      "const { v1 } = require('./lib');\nconst { partnerPrint } = require('./lib');",
      '(await partnerPrint.createOrder(await v1.toV2Order(body))).order',
    ],
  ] as const)(
    '%s: its calls use the imported adapter and the client it is made from, and make none',
    async (_, files, imports, call) => {
      const orders = Object.keys(files).find((p) => p.startsWith('orders'))!;
      const r = await rerun(files);
      const out = r.after[orders]!;
      expect(out).toContain(imports);
      expect(out).toContain(call);
      expect(out).not.toMatch(/createClient|createV1Adapter|partnerPrintV1/);
      expect(r.of(orders)).toContainEqual(['rewritten', 'POST /orders (fetch)']);
      expect(
        r
          .of(orders)
          .filter(([kind]) => kind === 'todo')
          .map(([, what]) => what),
      ).toEqual(out.includes('.orderReference(') ? ['order look-up of an earlier run'] : []);
      for (const [path, text] of Object.entries(files)) if (path !== orders) expect(r.after[path]).toBe(text);
    },
  );

  it("the adapter's client out of reach (not exported): the file makes its own client and adapter, the client marked as a second one", async () => {
    const r = await rerun({
      'sdk.ts': SDK.replace('export const partnerPrint', 'const partnerPrint'),
      'orders.ts': `import { v1 } from './sdk';\n${V1_CALLS}`,
    });
    const out = r.after['orders.ts']!;
    // An adapter goes with its client: its look-ups and uploads on the API and key of the calls it serves.
    expect(out).toContain('(await partnerPrint.createOrder(await partnerPrintV1.toV2Order(body))).order');
    expect(out).toMatch(/^const partnerPrint = createClient\(/m);
    expect(out).toMatch(/^const partnerPrintV1 = createV1Adapter\(partnerPrint\);/m);
    expect(r.of('orders.ts')).toEqual([
      ['todo', 'second V2 client'],
      ['rewritten', 'POST /orders (fetch)'],
    ]);
    const detail = r.first.files.find((f) => f.path === 'orders.ts')!.findings[0]!.detail;
    expect(detail).toMatch(/`v1` \(imported from \.\/sdk\) is made from a V2 client \.\/sdk does not export/);
    expect(detail).toMatch(/two rate-limit budgets/);
    expect(todos(out)).toBe(1);
  });

  it("calls to another base URL than the adapter's client: the file makes its own client and adapter, unmarked", async () => {
    const r = await rerun({
      'sdk.ts': SDK,
      'orders.ts': `import { v1 } from './sdk';\n${V1_CALLS.replace('api.partner-print', 'test.partner-print')}`,
    });
    const out = r.after['orders.ts']!;
    expect(out).toContain("baseUrl: 'https://test.partner-print.example/v2'");
    expect(out).toContain('(await partnerPrint.createOrder(await partnerPrintV1.toV2Order(body))).order');
    expect(out).toContain("import { v1 } from './sdk';");
    expect(r.of('orders.ts')).toEqual([['rewritten', 'POST /orders (fetch)']]);
  });

  it('a V1 key passed in at run time, rewritten onto the imported client: marked above its import', async () => {
    const r = await rerun({
      'sdk.ts': SDK,
      'orders.ts': `import { v1 } from './sdk';\n${V1_CALLS.replace("process.env.PP_API_KEY ?? ''", 'key').replace('body: unknown', 'body: unknown, key: string').replace("const headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': key };\n", '').replace('headers, body', "headers: { 'X-Partner-Code': 'ACME1', 'X-Api-Key': key }, body")}`,
    });
    const out = r.after['orders.ts']!;
    expect(out).toMatch(
      /^\/\/ TODO\(partner-print v2\): the V1 API key was passed in where the calls ran \(`key`\).*\nimport \{ v1, partnerPrint \} from '\.\/sdk';/m,
    );
    expect(r.of('orders.ts')).toEqual([
      ['rewritten', 'POST /orders (fetch)'],
      ['todo', 'V1 credentials passed in at run time'],
    ]);
  });
});

describe("a file that imports only an earlier run's client (not its adapter) and has V1 calls that need an adapter", () => {
  const CLIENT = SDK.replace(/^import \{ createV1Adapter \}.*\n/m, '').replace(
    /^export const v1 = .*\n/m,
    '',
  );
  const PLACE = `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY ?? '' };
export async function place(body: unknown) {
  const created = await (await fetch(\`\${BASE}/orders\`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  return created.order_reference;
}
`;

  it('a module that makes only the client: the calls use the imported client, the adapter made from it, no second client', async () => {
    const r = await rerun({
      'sdk.ts': CLIENT,
      'orders.ts': `import { partnerPrint } from './sdk';\n${PLACE}`,
    });
    const out = r.after['orders.ts']!;
    expect(out).toContain("import { partnerPrint } from './sdk';");
    expect(out).toMatch(/^const partnerPrintV1 = createV1Adapter\(partnerPrint\);$/m);
    expect(out).toContain('(await partnerPrint.createOrder(await partnerPrintV1.toV2Order(body))).order');
    expect(out).not.toMatch(/createClient|partnerPrint2/);
    expect(r.of('orders.ts')).toEqual([['rewritten', 'POST /orders (fetch)']]);
    expect(r.after['sdk.ts']).toBe(CLIENT);
  });

  it.each([
    [
      'a named import',
      "import { partnerPrint } from './sdk';",
      "import { partnerPrint, v1 } from './sdk';",
      '',
    ],
    [
      'a require',
      "const { partnerPrint } = require('./sdk');",
      "const { partnerPrint } = require('./sdk');\nconst { v1 } = require('./sdk');",
      '',
    ],
    ['a namespace import', "import * as sdk from './sdk';", "import * as sdk from './sdk';", 'sdk.'],
  ])(
    'a module that makes the client and an adapter from it, %s: the calls use its adapter, no second one',
    async (_, imports, after, ns) => {
      const place = PLACE.replace('export async', `export const pp = ${ns}partnerPrint;\nexport async`);
      const r = await rerun({ 'sdk.ts': SDK, 'orders.ts': `${imports}\n${place}` });
      const out = r.after['orders.ts']!;
      expect(out).toContain(after);
      expect(out).toContain(`(await ${ns}partnerPrint.createOrder(await ${ns}v1.toV2Order(body))).order`);
      expect(out).not.toMatch(/createClient|createV1Adapter|partnerPrintV1|partnerPrint2/);
      expect(r.of('orders.ts')).toEqual([['rewritten', 'POST /orders (fetch)']]);
      expect(r.after['sdk.ts']).toBe(SDK);
    },
  );

  it.each([
    ['only the client', false],
    ['the client and an adapter made from it', true],
  ])(
    'a namespace import of a module exporting %s, none of it named in the file: the calls use them through it',
    async (_, withAdapter) => {
      const sdk = (withAdapter ? SDK : CLIENT).replace(/partnerPrint\b/g, 'client');
      const r = await rerun({ 'client.ts': sdk, 'orders.ts': `import * as v2 from './client';\n${PLACE}` });
      const out = r.after['orders.ts']!;
      const adapter = withAdapter ? 'v2.v1' : 'partnerPrintV1';
      expect(out).toContain(`(await v2.client.createOrder(await ${adapter}.toV2Order(body))).order`);
      expect(out).not.toMatch(/createClient|partnerPrint\b/);
      expect(out.match(/createV1Adapter\(/g) ?? []).toHaveLength(withAdapter ? 0 : 1);
      expect(r.of('orders.ts')).toEqual([['rewritten', 'POST /orders (fetch)']]);
      expect(r.after['client.ts']).toBe(sdk);
    },
  );

  it('a V1 call added after a run: rewritten onto the imported client and the adapter made from it', async () => {
    const files = { 'sdk.ts': CLIENT, 'orders.ts': `import { partnerPrint as pp } from './sdk';\n${PLACE}` };
    const first = await rerun(files);
    const added = `${first.after['orders.ts']}export async function again(body: unknown) {
  const created = await (await fetch('https://api.partner-print.example/v1/orders', { method: 'POST', headers: { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY ?? '' }, body: JSON.stringify(body) })).json();
  return created.order_reference;
}
`;
    const r = await rerun({ 'sdk.ts': CLIENT, 'orders.ts': added });
    const out = r.after['orders.ts']!;
    expect(out.match(/createV1Adapter\(/g)).toHaveLength(1);
    expect(out.match(/await pp\.createOrder\(await partnerPrintV1\.toV2Order\(body\)\)/g)).toHaveLength(2);
    expect(out).not.toMatch(/createClient/);
  });

  it("calls to another base URL, or a client whose base URL is not written out: the file's own client", async () => {
    const other = await rerun({
      'sdk.ts': CLIENT,
      'orders.ts': `import { partnerPrint } from './sdk';\n${PLACE.replace('api.partner-print', 'test.partner-print')}`,
    });
    expect(other.after['orders.ts']).toContain(
      "const partnerPrint2 = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://test.partner-print.example/v2' });",
    );
    const unwritten = await rerun({
      'sdk.ts': CLIENT.replace("'https://api.partner-print.example/v2'", 'process.env.PP_V2_URL'),
      'orders.ts': `import { partnerPrint } from './sdk';\n${PLACE}`,
    });
    expect(unwritten.after['orders.ts']).toMatch(/^const partnerPrint2 = createClient\(/m);
  });
});

describe("a V1 key passed in at run time, rewritten onto another module's client", () => {
  const KEYED = `const BASE = 'https://api.partner-print.example/v1';
export async function place(body: unknown, key: string) {
  const created = await (await fetch(\`\${BASE}/orders\`, { method: 'POST', headers: { 'X-Partner-Code': 'ACME1', 'X-Api-Key': key }, body: JSON.stringify(body) })).json();
  return created.order_reference;
}
`;
  const todo = (out: string) => out.split('\n').find((l) => l.includes('V1 API key was passed in'))!;

  it.each([
    ['its adapter imported', "import { v1 } from './sdk';", "import { v1, partnerPrint } from './sdk';"],
    [
      'only the client imported (its module exporting an adapter made from it too)',
      "import { partnerPrint } from './sdk';",
      "import { partnerPrint, v1 } from './sdk';",
    ],
  ])(
    '%s: the TODO above its import names where that module reads the key, not this run’s key expression',
    async (_, imports, after) => {
      const sdk = SDK.replace('process.env.PARTNER_PRINT_SECRET_KEY', 'process.env.SHOP_PP_SECRET');
      const r = await rerun({ 'sdk.ts': sdk, 'orders.ts': `${imports}\n${KEYED}` });
      const out = r.after['orders.ts']!;
      expect(out).toContain(`\n${after}`);
      expect(out).not.toMatch(/createClient/);
      expect(todo(out)).toContain(
        'this client reads one secret key, from process.env.SHOP_PP_SECRET (as ./sdk makes it), when its module loads',
      );
      expect(out).not.toContain('PARTNER_PRINT_SECRET_KEY');
      expect(r.of('orders.ts')).toContainEqual(['todo', 'V1 credentials passed in at run time']);

      // A key written out there is not copied into the TODO.
      const written = await rerun({
        'sdk.ts': SDK.replace("process.env.PARTNER_PRINT_SECRET_KEY ?? ''", "'sk_test_0123456789abcdef'"),
        'orders.ts': `${imports}\n${KEYED}`,
      });
      const line = todo(written.after['orders.ts']!);
      expect(line).toContain('from the secretKey ./sdk makes it with, when its module loads');
      expect(line).not.toMatch(/sk_test|PARTNER_PRINT_SECRET_KEY/);
    },
  );
});
