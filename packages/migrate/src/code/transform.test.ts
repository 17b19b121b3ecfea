import { V1_CREDENTIAL_HEADERS, v1CredentialKind } from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import { decodeBase64Image } from '../image.ts';
import { checkParses } from './parse.ts';
import { TODO_TAG } from './todo.ts';
import { parsesAgain, type TransformResult, transformSource } from './transform.ts';

const twice = (text: string, file = 'a.ts') => {
  const first = transformSource(text, file);
  const second = transformSource(first.output, file);
  return { first, second };
};
const todos = (s: string) => s.split(TODO_TAG).length - 1;

describe('transformSource', () => {
  it('leaves V2 code and other APIs alone', () => {
    const v2 = `import { createClient } from '@partner-print/client';
const client = createClient({ secretKey: 'k', baseUrl: 'https://api.partner-print.example/v2' });
export const read = (r: \`Order_\${string}\`) => client.get('/orders/{orderReference}', { params: { path: { orderReference: r } } });
`;
    const stripe = `import axios from 'axios';
export const charge = async (body: unknown) => (await axios.post('https://api.stripe.com/v1/charges', body, { headers: { 'x-api-key': 'k' } })).data;
`;
    for (const text of [v2, stripe]) {
      const r = transformSource(text, 'x.ts');
      expect(r).toMatchObject({ changed: false, findings: [] });
      expect(r.output).toBe(text);
    }
  });

  it('a credential header left in a constant the rewrite left unused (its value calls code, so it stays) is marked as unused, not as still sent', () => {
    const text = `const code = () => process.env.PP_PARTNER_CODE ?? '';
export async function find(id: string) {
  const headers = { 'X-Partner-Code': code() };
  const url = 'https://api.partner-print.example/v1/orders?partner_reference=' + id;
  return (await (await fetch(url, { headers })).json()).order_reference;
}
`;
    const { first, second } = twice(text);
    expect(first.findings.map((f) => f.kind)).toContain('rewritten');
    expect(first.output).toContain("const headers = { 'X-Partner-Code': code() };");
    expect(first.output).not.toMatch(/still sent/);
    expect(first.output).toMatch(/TODO.*a V1 credential header is left in a value nothing in this file uses/);
    expect(second.output).toBe(first.output);
    // A second run over its own output (the header unused before it began) reports it the same way.
    const detail = (r: typeof first) => r.findings.find((f) => f.what === 'V1 credential header')?.detail;
    expect(detail(first)).toMatch(/left in a value nothing in this file uses/);
    expect(detail(second)).toBe(`${detail(first)} (TODO already in place)`);
    // Exported, it is another file's to use: still marked as sent.
    const exported = transformSource(
      text
        .replace('  const headers', '  const unused = 0;\n  const headers')
        .replace(/^/, "export const shared = { 'X-Partner-Code': 'ACME1' };\n"),
      'b.ts',
    );
    const shared = exported.findings.find((f) => f.what === 'V1 credential header' && f.line === 1);
    expect(shared?.detail).toMatch(/still sent/);
  });

  it("keeps a constant a parameter's default reads beside a function's `var` of that name (its `var`s do not bind there)", () => {
    const text = `const url = 'https://api.partner-print.example/v1/orders?partner_reference=';
const headers = { 'X-Partner-Code': 'ACME1' };
export async function find(id) { return (await (await fetch(url + id, { headers })).json()).order_reference; }
export function show(u = url) { var url = 'local'; return u + url; }
`;
    const { first, second } = twice(text, 'a.js');
    // Removed as unused, the default read a name no longer declared: a ReferenceError when show() runs.
    expect(first.output).toContain(
      "const url = 'https://api.partner-print.example/v1/orders?partner_reference=';",
    );
    expect(first.output).toContain('export function show(u = url)');
    expect(second.output).toBe(first.output);
  });

  it("prints a rewritten function with the file's own indentation, not the one-space step of its JSDoc blocks' lines", () => {
    const doc = (n: number) => `/**\n * Handler ${n}.\n * @param {string} id\n */\n`;
    const fn = (name: string) =>
      `export async function ${name}(id) {\n  const url = 'https://api.partner-print.example/v1/orders?partner_reference=' + id;\n  const r = await fetch(url, { headers: { 'X-Partner-Code': 'ACME1' } });\n  return (await r.json()).order_reference;\n}\n`;
    const text = [1, 2, 3].map((n) => `${doc(n)}${fn(`h${n}`)}`).join('\n');
    const { first, second } = twice(text, 'handlers.js');
    expect(first.findings.filter((f) => f.kind === 'rewritten')).toHaveLength(3);
    const bodyLines = first.output.split('\n').filter((l) => /^\s+\S/.test(l) && !/^\s*\*/.test(l));
    expect(bodyLines.length).toBeGreaterThan(0);
    for (const line of bodyLines) expect(line, line).toMatch(/^( {2})+\S/);
    expect(second.output).toBe(first.output);
  });

  it("a call's URL and headers read from constants of one name in two functions: each through its own (by scope)", () => {
    const fn = (name: string, code: string) =>
      `export async function ${name}(id: string) {\n  const headers = { 'X-Partner-Code': '${code}' };\n  const url = 'https://api.partner-print.example/v1/orders?partner_reference=' + id;\n  return (await (await fetch(url, { headers })).json()).order_reference;\n}\n`;
    const same = twice(`${fn('a', 'ACME1')}${fn('b', 'ACME1')}`);
    expect(same.first.findings.map((f) => [f.kind, f.line])).toEqual([
      ['rewritten', 4],
      ['rewritten', 9],
    ]);
    expect(same.first.output).not.toMatch(/fetch\(|X-Partner-Code/);
    expect(same.second.output).toBe(same.first.output);
    // Another organization's code in the second: that call is marked, the first rewritten.
    const other = twice(`${fn('a', 'ACME1')}${fn('b', 'OTHER')}`);
    expect(other.first.findings.filter((f) => f.line === 4 || f.line === 9).map((f) => f.kind)).toEqual([
      'rewritten',
      'todo',
    ]);
    expect(other.first.findings.find((f) => f.line === 9)!.detail).toMatch(/other V1 credentials/);
    expect(other.second.output).toBe(other.first.output);
  });

  it('the constants a rewritten call read are removed by binding: those of one name in a function left on V1 stay, with no TODO where nothing is sent', () => {
    const fn = (name: string, decl: string, code: string) =>
      `export async function ${name}(id: string) {\n  ${decl} headers = { 'X-Partner-Code': '${code}' };\n  ${decl} url = 'https://api.partner-print.example/v1/orders?partner_reference=' + id;\n  return (await (await fetch(url, { headers })).json()).order_reference;\n}\n`;
    for (const decl of ['const', 'var']) {
      const r = twice(`${fn('a', decl, 'ACME1')}${fn('b', decl, 'OTHER')}`);
      const out = r.first.output;
      const a = out.slice(out.indexOf('function a'), out.indexOf('function b'));
      const b = out.slice(out.indexOf('function b'));
      expect(a, decl).not.toMatch(/headers|url|TODO/);
      expect(b, decl).toContain(`${decl} headers = { 'X-Partner-Code': 'OTHER' }`);
      expect(b, decl).toMatch(/TODO.*a V1 credential header is still sent/);
      expect(r.first.findings.map((f) => [f.kind, f.what]).filter(([k]) => k === 'todo')).toEqual([
        ['todo', 'V1 credential header'],
        ['todo', 'V1 base URL'],
        ['todo', 'GET /orders?partner_reference=… (fetch)'],
      ]);
      expect(r.second.output).toBe(out);
    }
    // Where what binds a name is not certain (`eval` in the file; a `var` declared twice in a function), its uses
    // anywhere in the file count: kept while any is left.
    for (const text of [
      `${fn('a', 'const', 'ACME1')}${fn('b', 'const', 'OTHER')}export const run = (s: string) => eval(s);\n`,
      `${fn('a', 'const', 'ACME1')}${fn('b', 'var', 'OTHER').replace('  return', "  if (!id) { var headers = { 'X-Partner-Code': 'OTHER' }; }\n  return")}`,
    ]) {
      const a = transformSource(text, 'a.ts').output;
      expect(a.slice(a.indexOf('function a'), a.indexOf('function b'))).toMatch(/const headers = /);
    }
  });

  it('every V1 credential header spelling is dropped; a partner-code header proves the call is V1', () => {
    for (const h of V1_CREDENTIAL_HEADERS) {
      const partner = v1CredentialKind(h) === 'partner-code';
      const headers = partner ? `'${h}': 'x'` : `'X-Partner-Code': 'p', '${h}': 'x'`;
      const text = `export async function f(r: string) {\n  const res = await fetch(\`https://h.example/v1/orders?partner_reference=\${r}\`, { headers: { ${headers} } });\n  return (await res.json()).reference;\n}\n`;
      const r = transformSource(text, 'a.ts');
      expect(
        r.findings.map((f) => f.kind),
        h,
      ).toEqual(['rewritten']);
      expect(r.output, h).not.toContain(`'${h}'`);
    }
  });

  it('a V1 endpoint path without a partner-code header is marked, not rewritten (it may be another API)', () => {
    const text = `export async function f(r: string) {\n  const res = await fetch(\`https://api.other.example/v1/orders/\${r}\`, { headers: { 'x-api-key': 'k' } });\n  return (await res.json()).id;\n}\n`;
    const r = transformSource(text, 'a.ts');
    expect(r.findings.map((f) => [f.kind, f.what])).toEqual([['todo', 'GET /orders/… (fetch)']]);
    expect(r.output).toContain("{ headers: { 'x-api-key': 'k' } }");
  });

  it('one TODO per statement, never twice; the comments already there stay', () => {
    const text = `const base = 'https://api.partner-print.example/v1';
const h = { 'X-Partner-Code': 'A', 'X-Api-Key': 'B' };
export async function both() {
  // fetch the stock and its attributes together
  return Promise.all([fetch(base + '/stock', { headers: h }), fetch(base + '/stock-attributes', { headers: h })]);
}
`;
    const { first, second } = twice(text);
    expect(first.output).toContain(
      '  // fetch the stock and its attributes together\n  // TODO(partner-print v2):',
    );
    expect(todos(first.output)).toBe(3); // the call statement, the base URL, the headers
    expect(first.findings.filter((f) => f.kind === 'todo').length).toBe(4); // both calls are listed
    expect(second.changed).toBe(false);
    expect(todos(second.output)).toBe(3);
    expect(second.findings.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps comments and formatting of code it does not touch', () => {
    const text = `import axios from 'axios';

/**
 * Docs.
 */
export   const   untouched = [1,2,3]; // odd spacing stays

const api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'A' } });

export async function get(ref: string) {
  // read it
  const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);
  return data.reference;
}
`;
    const r = transformSource(text, 'a.ts');
    expect(r.output).toContain(
      '/**\n * Docs.\n */\nexport   const   untouched = [1,2,3]; // odd spacing stays',
    );
    expect(r.output).toContain('  // read it\n  const data = (await partnerPrint.get(');
    expect(r.output).not.toContain('axios');
  });

  it("a comment heading the file (a licence) stays, above 'use strict' or above an import the rewrite removes", () => {
    const licence = '/*\n * Copyright (c) 2024 Shop Inc. All rights reserved.\n */';
    const spdx = '// Copyright (c) 2024 Shop Inc.\n// SPDX-License-Identifier: MIT';
    const call = `async function getOrder(ref) {\n  const res = await fetch('https://api.partner-print.example/v1/orders?partner_reference=' + ref, { headers: { 'X-Partner-Code': 'A' } });\n  return (await res.json()).reference;\n}\n`;
    const cases: Array<[string, string, string]> = [
      [
        licence,
        `${licence}\n'use strict';\nconst fetch = require('node-fetch');\n\n${call}module.exports = { getOrder };\n`,
        'a.js',
      ],
      [spdx, `${spdx}\n\nimport fetch from 'node-fetch';\n\nexport ${call}`, 'a.mjs'],
      [
        licence,
        `${licence}\nconst fetch = require('node-fetch');\n${call}module.exports = { getOrder };\n`,
        'a.cjs',
      ],
    ];
    for (const [head, text, file] of cases) {
      const { first, second } = twice(text, file);
      expect(
        first.findings.map((f) => f.kind),
        file,
      ).toEqual(['rewritten']);
      expect(first.output.startsWith(head), file).toBe(true);
      expect(first.output, file).not.toContain('node-fetch');
      expect(second.output, file).toBe(first.output);
    }
  });

  it('a CommonJS module with no require at the top (global fetch, a require in a function) gets require, not import', () => {
    const get = `async function getOrder(ref) {\n  const res = await fetch(\`https://api.partner-print.example/v1/orders?partner_reference=\${ref}\`, { headers: { 'X-Partner-Code': 'A' } });\n  return (await res.json()).reference;\n}\n`;
    for (const text of [
      `'use strict';\n\n${get}\nmodule.exports = { getOrder };\n`,
      `exports.getOrder = ${get}`,
      `${get}function load() {\n  return require('./config.json');\n}\nmodule.exports = { getOrder, load };\n`,
    ]) {
      const r = transformSource(text, 'a.js');
      expect(
        r.findings.map((f) => f.kind),
        text,
      ).toEqual(['rewritten']);
      expect(r.output, text).toMatch(/^const \{ createClient \} = require\('@partner-print\/client'\);$/m);
      expect(r.output, text).not.toMatch(/^import /m);
      expect(transformSource(r.output, 'a.js').changed, text).toBe(false);
    }
    // A module file stays a module.
    const mjs = transformSource(`${get}export { getOrder };\n`, 'a.js');
    expect(mjs.output).toMatch(/^import \{ createClient \} from '@partner-print\/client';$/m);
  });

  it("TypeScript's `import x = require('…')` of an HTTP library is read like an import", () => {
    const text = `import axios = require('axios');\nconst H = { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY ?? '' };\nexport async function createOrder(body: unknown) {\n  const { data } = await axios.post('https://api.partner-print.example/v1/orders', body, { headers: H });\n  return data.order_reference;\n}\n`;
    const { first, second } = twice(text, 'a.cts');
    expect(first.findings.map((f) => [f.kind, f.what])).toEqual([['rewritten', 'POST /orders (axios)']]);
    expect(first.output).not.toContain("require('axios')");
    expect(first.output).toContain('return data.reference;');
    expect(second.changed).toBe(false);
  });

  it('CommonJS gets require, ESM gets import; JSX, TSX and .cts parse', () => {
    const call = `async function f(o) { const { data } = await axios.post('https://h.example/v1/orders', o, { headers: { 'x-partner-code': 'p', 'x-api-key': 'k' } }); return data.reference; }\n`;
    const cjs = transformSource(`const axios = require('axios');\n${call}module.exports = { f };\n`, 'a.cjs');
    expect(cjs.output).toMatch(/^const \{ createClient \} = require\('@partner-print\/client'\);$/m);
    const esm = transformSource(`import axios from 'axios';\n${call}export { f };\n`, 'a.mjs');
    expect(esm.output).toMatch(/^import \{ createClient \} from '@partner-print\/client';$/m);
    expect(transformSource('export const A = () => <div>{1}</div>;\n', 'a.jsx').error).toBeUndefined();
    expect(
      transformSource('export const id = <T,>(x: T) => <b>{String(x)}</b>;\n', 'a.tsx').error,
    ).toBeUndefined();
    expect(
      transformSource('const n = <number>(1 as unknown);\nexport = n;\n', 'a.cts').error,
    ).toBeUndefined();
  });

  it('a file that binds createClient or createV1Adapter to another library gets them under free names, and still parses', () => {
    const calls = `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_KEY ?? '' };
async function byShopId(id) {
  return (await (await fetch(\`\${BASE}/orders?partner_reference=\${id}\`, { headers })).json()).order_reference;
}
`;
    for (const [file, head, imports] of [
      [
        'redis.ts',
        "import { createClient } from 'redis';\nexport const connect = () => createClient().connect();\n",
        "import { createClient as createPartnerPrintClient } from '@partner-print/client';",
      ],
      [
        'redis-const.ts',
        "import { createClient } from 'redis';\nexport const redis = createClient();\n",
        "import { createClient as createPartnerPrintClient } from '@partner-print/client';",
      ],
      [
        'supabase.cjs',
        "const { createClient } = require('@supabase/supabase-js');\nconst sb = createClient('https://x.supabase.co', 'anon');\nmodule.exports = { sb, byShopId };\n",
        "const { createClient: createPartnerPrintClient } = require('@partner-print/client');",
      ],
      [
        'legacy.ts',
        "import { createV1Adapter } from './legacy';\nexport const legacy = createV1Adapter();\n",
        "import { createV1Adapter as createPartnerPrintV1Adapter } from '@partner-print/migrate';",
      ],
    ] as const) {
      const { first, second } = twice(`${head}${calls}`, file);
      expect(first.error, file).toBeUndefined();
      expect(checkParses(first.output, file), file).toBeUndefined();
      expect(first.output, file).toContain(head.split('\n')[0]);
      expect(first.output, file).toContain(imports);
      expect(first.output, file).toMatch(
        /const partnerPrint = (createPartnerPrintClient|createClient)\(\{ secretKey: process\.env\.PARTNER_PRINT_SECRET_KEY/,
      );
      expect(first.output, file).toMatch(
        /const partnerPrintV1 = (createPartnerPrintV1Adapter|createV1Adapter)\(partnerPrint\)/,
      );
      // The other library's client is not taken for the V2 one: the calls are rewritten onto the file's own.
      expect(
        first.findings.map((f) => [f.kind, f.what]),
        file,
      ).toEqual([['rewritten', 'GET /orders?partner_reference=… (fetch)']]);
      expect(second.output, file).toBe(first.output);
      expect(second.error, file).toBeUndefined();
    }
  });

  it("a V2 client the file makes under another name (`createClient as makePP`, a require) is the file's one client", () => {
    const calls = `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_KEY ?? '' };
export async function byShopId(id: string) {
  return (await (await fetch(\`\${BASE}/orders?partner_reference=\${id}\`, { headers })).json()).order_reference;
}
`;
    for (const [file, head] of [
      [
        'a.ts',
        "import { createClient as makePP } from '@partner-print/client';\nconst pp = makePP({ secretKey: process.env.K ?? '', baseUrl: 'https://api.partner-print.example/v2' });\n",
      ],
      [
        'b.ts',
        "import * as PP from '@partner-print/client';\nconst pp = PP.createClient({ secretKey: process.env.K ?? '', baseUrl: 'https://api.partner-print.example/v2' });\n",
      ],
      [
        'c.cjs',
        "const { createClient } = require('@partner-print/client');\nconst pp = createClient({ secretKey: process.env.K ?? '', baseUrl: 'https://api.partner-print.example/v2' });\n",
      ],
    ] as const) {
      const text = `${head}${file.endsWith('.cjs') ? calls.replace('export async', 'async') : calls}`;
      const { first, second } = twice(text, file);
      expect(checkParses(first.output, file), file).toBeUndefined();
      expect(first.output.split('@partner-print/client').length - 1, file).toBe(1);
      expect(first.output, file).not.toContain('partnerPrint =');
      expect(first.output, file).toContain("(await pp.get('/orders/{orderReference}'");
      // The adapter is made from it, after its declaration.
      const lines = first.output.split('\n');
      expect(
        lines.findIndex((l) => l.includes('= createV1Adapter(pp)')),
        file,
      ).toBeGreaterThan(lines.findIndex((l) => l.startsWith('const pp = ')));
      expect(
        first.findings.filter((f) => f.kind === 'todo'),
        file,
      ).toEqual([]);
      expect(second.output, file).toBe(first.output);
    }
  });

  it('a shebang, a byte order mark and CRLF line endings survive the rewrite (and the file still parses)', () => {
    const body = [
      "const fetch = require('node-fetch');",
      "const BASE = 'https://api.partner-print.example/v1';",
      'async function get(ref) {',
      "\tconst data = await (await fetch(BASE + '/orders?partner_reference=' + ref, { headers: { 'X-Partner-Code': 'A' } })).json();",
      '\treturn data.order_reference;',
      '}',
      'module.exports = { get };',
      '',
    ];
    for (const [head, eol] of [
      ['#!/usr/bin/env node\n', '\n'],
      ["#!/usr/bin/env node\n'use strict';\n", '\n'],
      ['\uFEFF', '\n'],
      ['', '\r\n'],
      ['\uFEFF#!/usr/bin/env node\r\n', '\r\n'],
    ] as const) {
      const text = head + body.join(eol);
      const { first, second } = twice(text, 'cli.cjs');
      const label = JSON.stringify(head + eol);
      expect(first.error, label).toBeUndefined();
      expect(
        first.findings.map((f) => f.kind),
        label,
      ).toEqual(['rewritten']);
      expect(first.output.startsWith(head), label).toBe(true);
      expect(first.output, label).toContain('\treturn data.reference;');
      // Every line ends as the file's lines do, and what the rewrite made parses.
      expect(first.output.split(eol).length, label).toBe(first.output.split('\n').length);
      expect(transformSource(first.output.replace(/^\uFEFF?#!.*/, ''), 'x.cjs').error, label).toBeUndefined();
      expect(second.changed, label).toBe(false);
    }
  });

  it('a file that does not parse is returned unchanged with the error', () => {
    const r = transformSource('export const = 1;', 'bad.ts');
    expect(r.error).toMatch(/does not parse/);
    expect(r.output).toBe('export const = 1;');
    expect(r.changed).toBe(false);
  });

  it('a rewrite whose output would not parse leaves the file byte for byte, reported as an error', () => {
    const text = "import { createClient } from 'redis';\nexport const c = createClient();\n";
    const broken = `${text}import { createClient } from '@partner-print/client';\n`;
    const r = parsesAgain<TransformResult>(
      {
        file: 'a.ts',
        output: broken,
        changed: true,
        findings: [{ file: 'a.ts', line: 1, column: 1, kind: 'rewritten' as const, what: 'x', detail: 'y' }],
      },
      text,
      'a.ts',
    );
    expect(r).toMatchObject({ output: text, changed: false, findings: [] });
    expect(r.error).toMatch(
      /^could not be rewritten: the rewritten code does not parse: Identifier 'createClient' has already been declared/,
    );
    // Output that parses, or no change, passes through as it is.
    const fine: TransformResult = {
      file: 'a.ts',
      output: `${text}export {};\n`,
      changed: true,
      findings: [],
    };
    expect(parsesAgain(fine, text, 'a.ts')).toBe(fine);
    const same: TransformResult = { file: 'a.ts', output: text, changed: false, findings: [] };
    expect(parsesAgain(same, text, 'a.ts')).toBe(same);
    // A byte order mark before a `#!` line is no syntax error (Babel alone refuses it; loaders drop the mark).
    const cli = '\uFEFF#!/usr/bin/env node\r\nconst a = 1;\r\n';
    expect(checkParses(cli, 'cli.cjs')).toBeUndefined();
    expect(
      parsesAgain<TransformResult>(
        { file: 'cli.cjs', output: `${cli}a;\r\n`, changed: true, findings: [] },
        cli,
        'cli.cjs',
      ).error,
    ).toBeUndefined();
  });

  it('a callback read of order_reference only logged stays the V1 code, marked, whether the V1 calls of the file are rewritten or not', () => {
    const read = `app.get('/cb', async (req, res) => {\n  const ref = req.query.order_reference;\n  const r = await fetch(\`https://h.example/v1/orders?partner_reference=\${req.query.custom_reference}\`, { headers: { 'X-Partner-Code': 'A' } OPTS });\n  console.log('updated', ref);\n  res.json((await r.json()).reference);\n});\n`;
    const done = transformSource(read.replace(' OPTS', ''), 'a.js');
    expect(done.findings.map((f) => f.kind)).toEqual(['todo', 'rewritten']);
    const left = transformSource(read.replace(' OPTS', ', signal: AbortSignal.timeout(5000)'), 'a.js');
    for (const r of [done, left]) {
      expect(r.output).toContain('req.query.order_reference;');
      expect(r.output).not.toContain('req.query.order_reference_v2');
      expect(r.output).toMatch(/TODO\(partner-print v2\): read order_reference_v2/);
    }
  });

  it('a response used beyond its JSON body is marked, not rewritten', () => {
    const text = `export async function f(o: unknown) {\n  const res = await fetch('https://h.example/v1/orders', { method: 'POST', headers: { 'X-Partner-Code': 'A' }, body: JSON.stringify(o) });\n  return res.headers.get('location');\n}\n`;
    const r = transformSource(text, 'a.ts');
    expect(r.findings.map((f) => f.kind)).toEqual(['todo']);
    expect(r.output).toContain("await fetch('https://h.example/v1/orders'");
    expect(r.output).toMatch(/beyond its JSON body/);
  });
});

describe('the V1 path of a call', () => {
  const file = (call: string) =>
    `const BASE = 'https://api.partner-print.example/v1';\nconst headers = { 'X-Partner-Code': 'ACME1' };\nexport async function f(order: object, ref: string, n: number) {\n  const data = await (await ${call}).json();\n  return data.order_reference;\n}\n`;

  it('a query the V2 call does not take is marked, never dropped (POST /orders?dry_run=1 would create the order)', () => {
    for (const call of [
      `fetch(\`\${BASE}/orders?dry_run=1\`, { method: 'POST', headers, body: JSON.stringify(order) })`,
      `fetch(\`\${BASE}/orders/\${ref}?include=shipments\`, { headers })`,
      `fetch(\`\${BASE}/orders?partner_reference=shop-1&limit=\${n}\`, { headers })`,
      `fetch(\`\${BASE}/orders?store_code=ACME1&partner_reference=\${ref}\`, { headers })`,
    ]) {
      const r = transformSource(file(call), 'a.ts');
      expect(
        r.findings.map((f) => f.kind),
        call,
      ).toEqual(['todo', 'todo', 'todo']); // the call, and the base URL and header it still uses
      expect(r.output, call).toContain(call);
      expect(r.output, call).not.toContain('createClient');
    }
  });

  it('a query is named by its parameters only: a key in it (api_key=…) is never quoted in the report or a TODO', () => {
    const key = 'pk_live_9f8e7d6c5b4a';
    const text = file(`fetch(\`\${BASE}/orders/\${ref}?api_key=${key}&include=shipments\`, { headers })`);
    const r = transformSource(text, 'a.ts');
    const call = r.findings.find((f) => f.what.startsWith('GET'));
    expect(call?.what).toBe('GET /orders/…?api_key=…&include=… (fetch)');
    expect(call?.detail).toBe(
      'V1 call left as it is: its query (api_key, include) has no place in the V2 call.',
    );
    for (const f of r.findings) expect(JSON.stringify(f)).not.toContain(key);
    expect(r.output.split(key).length).toBe(text.split(key).length);
  });

  it('a base URL only known at run time is named as the reason, not a garbled path', () => {
    const text = `const headers = { 'X-Partner-Code': 'ACME1' };\nexport async function f(cfg: { base: string }, ref: string) {\n  const data = await (await fetch(\`\${cfg.base}/orders/\${ref}\`, { headers })).json();\n  return data.order_reference;\n}\n`;
    const r = transformSource(text, 'a.ts');
    const call = r.findings.find((f) => f.what.startsWith('GET'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toBe('V1 call left as it is: its base URL is only known at run time.');
  });

  it('the order identifier is a whole path segment or the partner reference itself, not a part of one', () => {
    for (const call of [
      `fetch(\`\${BASE}/orders/ACME1-\${n}\`, { headers })`,
      `fetch(\`\${BASE}/orders/partner_reference/shop-\${ref}\`, { headers })`,
    ]) {
      const r = transformSource(file(call), 'a.ts');
      expect(r.findings[0]?.kind, call).toBe('todo');
      expect(r.output, call).not.toMatch(/orderReference\((n|ref)\)/);
    }
    // A whole segment that may be a V1 order code: no V2 look-up finds the order by it.
    const code = transformSource(file(`fetch(\`\${BASE}/orders/\${ref}\`, { headers })`), 'a.ts');
    const get = code.findings.find((f) => f.what.startsWith('GET'));
    expect(get?.kind).toBe('todo');
    expect(get?.detail).toMatch(/no look-up by V1 order code/);
    for (const [call, id] of [
      [`fetch(\`\${BASE}/orders?partner_reference=\${encodeURIComponent(ref)}\`, { headers })`, 'ref'],
      [`fetch(\`\${BASE}/orders/partner-reference/\${ref}/\`, { headers })`, 'ref'],
      ["fetch(BASE + '/orders?partner_reference=shop-1', { headers })", "'shop-1'"],
    ] as const) {
      const r = transformSource(file(call), 'a.ts');
      expect(
        r.findings.map((f) => f.kind),
        call,
      ).toEqual(['rewritten']);
      expect(r.output, call).toContain(`orderReferenceByPartnerReference(${id})`);
    }
  });
});

describe('orders without a partner reference', () => {
  it('are rewritten and marked: without a customIdentifier a rerun creates the order again', () => {
    const text = `export async function f(lines: unknown[]) {\n  const res = await fetch('https://h.example/v1/orders', { method: 'POST', headers: { 'X-Partner-Code': 'A' }, body: JSON.stringify({ store_code: 'ACME1', orderlines: lines }) });\n  return (await res.json()).reference;\n}\n`;
    const r = transformSource(text, 'a.ts');
    expect(r.findings.map((f) => f.kind).sort()).toEqual(['rewritten', 'todo']);
    expect(r.output).toMatch(/TODO\(partner-print v2\): this V1 order has no partner_reference/);
    expect(r.output).toContain('partnerPrint.createOrder(');
    expect(transformSource(r.output, 'a.ts').changed).toBe(false);
    const withRef = transformSource(
      text.replace("store_code: 'ACME1'", "store_code: 'ACME1', partner_reference: 'x'"),
      'a.ts',
    );
    expect(withRef.findings.map((f) => f.kind)).toEqual(['rewritten']);
  });
});

it('a parameter or destructured name shadowing a constant is not that constant', () => {
  const head = `const url = 'https://api.partner-print.example/v1/orders';\nconst headers = { 'X-Partner-Code': 'A' };\n`;
  const call = `const data = await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).json();\n  return data.order_reference;`;
  for (const fn of [
    `export async function send(url: string, body: object) {\n  ${call}\n}\n`,
    `export const send = async (url: string, body: object) => {\n  ${call}\n};\n`,
    `export async function send(cfg: { url: string }, body: object) {\n  const { url } = cfg;\n  ${call}\n}\n`,
    `export async function send([url]: string[], body: object) {\n  ${call}\n}\n`,
    `export async function send(body: object) {\n  try { return 1; } catch (url) {\n  ${call}\n  }\n}\n`,
  ]) {
    const r = transformSource(head + fn, 'a.ts');
    expect(
      r.findings.filter((f) => f.kind === 'rewritten'),
      fn,
    ).toEqual([]);
    expect(r.output, fn).not.toContain('createOrder');
  }
  // The constant itself is still followed where nothing shadows it.
  const plain = transformSource(`${head}export async function send(body: object) {\n  ${call}\n}\n`, 'a.ts');
  expect(plain.output).toContain('partnerPrint.createOrder(');
});

it('a local function named fetch is not the global fetch', () => {
  const text = `async function fetch(url: string, init?: unknown) { return { url, init }; }\nexport const f = () => fetch('https://h.example/v1/orders/1', { headers: { 'X-Partner-Code': 'A' } });\n`;
  const r = transformSource(text, 'a.ts');
  expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
});

describe('order bodies written out in the code', () => {
  const src = (body: string) =>
    `export async function f(id: string, sku: string) {\n  const res = await fetch('https://h.example/v1/orders', { method: 'POST', headers: { 'X-Partner-Code': 'A' }, body: JSON.stringify(${body}) });\n  return (await res.json()).reference;\n}\n`;
  const stores = { ACME1: 'Store_abc' };

  it('become the V2 body, names from the conversion tables, SKUs looked up where the code runs', () => {
    const r = transformSource(
      src(
        "{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 2 }] }",
      ),
      'a.ts',
      { stores },
    );
    expect(r.output).toContain(
      "createOrder({ storeReference: 'Store_abc', shippingKind: 'combined', customIdentifier: id, orderlines: [{ productReference: await partnerPrintV1.productReference(sku), quantity: 2 }] })",
    );
    expect(transformSource(r.output, 'a.ts', { stores }).changed).toBe(false);
  });

  it('a literal SKU in the skus mapping is its Product_ reference; a SKU only known at run time is looked up', () => {
    const products = { 'MUG-1': 'Product_01HZX3M8Q6V2K9T4N7R5B1C0DE' };
    const mapped = transformSource(
      src(
        "{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku: 'MUG-1', quantity: 1 }] }",
      ),
      'a.ts',
      { stores, productReferences: products },
    );
    expect(mapped.output).toContain(
      "orderlines: [{ productReference: 'Product_01HZX3M8Q6V2K9T4N7R5B1C0DE', quantity: 1 }]",
    );
    // Nothing is looked up at run time: no V1 adapter is created.
    expect(mapped.output).not.toContain('createV1Adapter');
    expect(transformSource(mapped.output, 'a.ts', { stores, productReferences: products }).changed).toBe(
      false,
    );
    const mixed = transformSource(
      src(
        "{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1 }, { sku: 'toString', quantity: 1 }, { sku: 'MUG-1', quantity: 3 }] }",
      ),
      'a.ts',
      { stores, productReferences: products },
    );
    expect(mixed.output).toContain(
      "orderlines: [{ productReference: await partnerPrintV1.productReference(sku), quantity: 1 }, { productReference: await partnerPrintV1.productReference('toString'), quantity: 1 }, { productReference: 'Product_01HZX3M8Q6V2K9T4N7R5B1C0DE', quantity: 3 }]",
    );
    expect(mixed.output).toContain('createV1Adapter');
  });

  const PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

  it('a base64 JPEG or PNG written out in the code is uploaded first, its Image_ reference on the line', () => {
    for (const key of ['image', 'image_base64']) {
      const text = `const ART = '${PNG}';\n${src(`{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1, ${key}: ART }] }`)}`;
      const r = transformSource(text, 'a.ts', { stores });
      expect(r.output, key).toContain(
        '  const artImage = await partnerPrint.uploadImage(Uint8Array.from(atob(ART), (c) => c.charCodeAt(0)));\n',
      );
      expect(r.output, key).toContain(
        'orderlines: [{ productReference: await partnerPrintV1.productReference(sku), quantity: 1, imageReference: artImage }]',
      );
      expect(transformSource(r.output, 'a.ts', { stores }).changed).toBe(false);
    }
  });

  // Every spelling convertV1Order decodes, as a constant and as a literal: the bytes the rewritten code uploads
  // (its upload expression, evaluated) are the bytes convertV1Order would upload.
  const url = PNG.replace(/\+/g, '-').replace(/\//g, '_');
  const spellings = {
    plain: PNG,
    unpadded: PNG.replace(/=+$/, ''),
    base64url: url.replace(/=+$/, ''),
    'data URL': `data:image/png;base64,${PNG}`,
    'data URL, base64url': `data:image/png;base64,${url}`,
    'line breaks': `${PNG.slice(0, 40)}\n${PNG.slice(40)}`,
  };
  it.each(Object.entries(spellings))('a %s image is decoded and uploaded statically', (_, image) => {
    for (const form of ['const', 'literal'] as const) {
      const value = form === 'const' ? 'ART' : JSON.stringify(image);
      const text = `const ART = ${JSON.stringify(image)};\n${src(`{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1, image: ${value} }] }`)}`;
      const r = transformSource(text, 'a.ts', { stores });
      const upload = /uploadImage\((Uint8Array\.from\(atob\(.*\), \(c\) => c\.charCodeAt\(0\)\))\);/.exec(
        r.output,
      );
      expect(upload, `${form}: ${r.output}`).not.toBeNull();
      expect(r.output).not.toContain('toV2Order');
      const bytes = new Function('ART', `return ${upload![1]};`)(image);
      expect(bytes, form).toEqual(decodeBase64Image(image).bytes);
      expect(transformSource(r.output, 'a.ts', { stores }).changed).toBe(false);
    }
  });

  it('the same image on two lines, or in a render and an order of one flow, is uploaded once', () => {
    const twoLines = transformSource(
      `const ART = '${PNG}';\n${src(`{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1, image: ART }, { sku: 'B', quantity: 2, image: ART }] }`)}`,
      'a.ts',
      { stores },
    );
    expect(twoLines.output.split('uploadImage(').length - 1).toBe(1);
    expect(twoLines.output.split('imageReference: artImage').length - 1).toBe(2);
    // The same bytes spelled twice (a data URL and plain base64) are one image too.
    const twoSpellings = transformSource(
      src(
        `{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1, image: '${PNG}' }, { sku: 'B', quantity: 2, image: 'data:image/png;base64,${PNG}' }] }`,
      ),
      'a.ts',
      { stores },
    );
    expect(twoSpellings.output.split('uploadImage(').length - 1).toBe(1);
    const flow = `const ART = '${PNG}';
const H = { 'X-Partner-Code': 'A' };
export async function f(id: string) {
  const preview = await fetch('https://h.example/v1/render', { method: 'POST', headers: H, body: JSON.stringify({ scene_reference: 'Scene_a', product_reference: 'Product_b', perspective_reference: 'Perspective_c', image: ART }) });
  await preview.json();
  const res = await fetch('https://h.example/v1/orders', { method: 'POST', headers: H, body: JSON.stringify({ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku: 'A', quantity: 1, image: ART }] }) });
  return (await res.json()).reference;
}
`;
    const r = transformSource(flow, 'a.ts', { stores });
    expect(r.findings.filter((x) => x.kind === 'rewritten').map((x) => x.what)).toEqual([
      'POST /render (fetch)',
      'POST /orders (fetch)',
    ]);
    expect(r.output.split('uploadImage(').length - 1).toBe(1);
    expect(r.output).toContain('image: artImage');
    expect(r.output).toContain('imageReference: artImage');
    expect(transformSource(r.output, 'a.ts', { stores }).changed).toBe(false);
  });

  it('an upload is never hoisted out of the function the call runs in (an arrow function with an expression body)', () => {
    const text = `import axios from 'axios';
const api = axios.create({ baseURL: 'https://h.example/v1', headers: { 'X-Partner-Code': 'A' } });
const ART = '${PNG}';
export const up = async () => (await api.post('/render', { scene_reference: 'S', perspective_reference: 'P', product_reference: 'X', image: ART })).data;
export const ord = async (id: string) => (await api.post('/orders', { store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku: 'A', quantity: 1, image: ART }] })).data.order_reference;
`;
    const r = transformSource(text, 'a.ts', { stores });
    expect(r.output).not.toMatch(/^const \w+ = await/m);
    expect(r.output).toContain('await partnerPrintV1.toV2Order({');
    // The render's answer is returned whole (not renderMockup's shape): that call stays on V1, nothing uploaded for it.
    expect(r.output).toContain("(await api.post('/render', { scene_reference: 'S'");
    expect(r.output.match(/uploadImage\(/g)).toBeNull();
    expect(r.findings.filter((f) => f.kind === 'todo').map((f) => [f.line, f.what])).toEqual([
      [2, 'V1 base URL'],
      [4, 'POST /render (axios)'],
    ]);
  });

  it('comments inside a rewritten call are kept, above the rewritten statement, once', () => {
    const text = `export async function f(id: string, sku: string) {
  // Send the order.
  const res = await fetch('https://h.example/v1/orders', {
    method: 'POST', // V1 wanted POST
    headers: { 'X-Partner-Code': 'A' },
    body: JSON.stringify({
      store_code: 'ACME1',
      shipping_kind: 'combined',
      /* the shop's order id: V2's customIdentifier */
      partner_reference: id,
      orderlines: [{ sku, quantity: 1 }], // one line per cart item
    }),
  });
  return (await res.json()).reference;
}
`;
    const r = transformSource(text, 'a.ts', { stores });
    const lines = r.output.split('\n');
    const at = lines.findIndex((l) => l.includes('partnerPrint.createOrder('));
    expect(lines.slice(at - 4, at).map((l) => l.trim())).toEqual([
      '// Send the order.',
      '// V1 wanted POST',
      "/* the shop's order id: V2's customIdentifier */",
      '// one line per cart item',
    ]);
    for (const c of [
      '// V1 wanted POST',
      "/* the shop's order id: V2's customIdentifier */",
      '// one line per cart item',
    ])
      expect(r.output.split(c).length - 1, c).toBe(1);
    const again = transformSource(r.output, 'a.ts', { stores });
    expect(again.changed).toBe(false);
  });

  it('comments on the statements merged into the V2 one (the response, its ok guard, its JSON read) are kept above it, in order', () => {
    const text = `const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_KEY ?? '' };

export async function place(sku: string) {
  // Orders are placed for the main store only (ticket OPS-1234).
  const r = await fetch(BASE + '/orders', { method: 'POST', headers, body: JSON.stringify({ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: sku, orderlines: [{ sku, quantity: 1 }] }) });
  /* V1 returns 201 */
  if (!r.ok) throw new Error('HTTP ' + r.status); // never 200
  // the reference
  const { order_reference } = await r.json();
  return order_reference;
}

export async function find(ref: string) {
  // Look the order up by the shop's id.
  const res = await fetch(\`\${BASE}/orders?partner_reference=\${ref}\`, { headers });
  // V1 answers 404 for an unknown reference
  if (!res.ok) throw new Error('not found');
  return (await res.json()).order_reference;
}
`;
    const { first, second } = twice(text);
    expect(first.findings.filter((f) => f.kind === 'rewritten')).toHaveLength(2);
    const lines = first.output.split('\n').map((l) => l.trim());
    const create = lines.findIndex((l) => l.includes('partnerPrint.createOrder('));
    expect(lines.slice(create - 4, create)).toEqual([
      '// Orders are placed for the main store only (ticket OPS-1234).',
      '/* V1 returns 201 */',
      '// never 200',
      '// the reference',
    ]);
    const read = lines.findIndex((l) => l.includes("partnerPrint.get('/orders/{orderReference}'"));
    expect(lines.slice(read - 2, read)).toEqual([
      "// Look the order up by the shop's id.",
      '// V1 answers 404 for an unknown reference',
    ]);
    for (const c of [
      'ticket OPS-1234',
      'V1 returns 201',
      'never 200',
      'the reference',
      "shop's id",
      'V1 answers 404',
    ])
      expect(first.output.split(c).length - 1, c).toBe(1);
    expect(second.output).toBe(first.output);
  });

  it('an image that is not provably base64 JPEG/PNG data keeps the run-time conversion', () => {
    for (const image of [
      "'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'", // a GIF: V2 refuses it, convertV1Order says so
      `'data:image/png,${PNG}'`, // a data URL that is not base64
      `'${PNG}\\u00a0'`, // a space atob does not skip
      "'not base64 at all'",
      "''",
      'id', // only known at run time
    ]) {
      const r = transformSource(
        src(
          `{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1, image: ${image} }] }`,
        ),
        'a.ts',
        { stores },
      );
      expect(r.output, image).toContain('await partnerPrintV1.toV2Order({');
      expect(r.output, image).not.toContain('uploadImage');
    }
    const both = transformSource(
      src(
        `{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1, image: '${PNG}', image_base64: '${PNG}' }] }`,
      ),
      'a.ts',
      { stores },
    );
    expect(both.output).toContain('await partnerPrintV1.toV2Order({');
  });

  it('convert at run time when a field needs it (a store code without --store, an address, computed lines)', () => {
    for (const body of [
      "{ store_code: 'OTHER', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 2 }] }",
      "{ store_code: 'ACME1', shipping_kind: 'dropship', dropship_address: { city: 'Utrecht' }, partner_reference: id, orderlines: [{ sku, quantity: 2 }] }",
      "{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [id].map((x) => ({ sku: x, quantity: 1 })) }",
      "{ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 2, image: 'iVBOR…' }] }",
    ]) {
      const r = transformSource(src(body), 'a.ts', { stores });
      expect(r.output, body).toContain('await partnerPrintV1.toV2Order({');
    }
  });

  describe('POST /render', () => {
    const H = "{ 'X-Partner-Code': 'A' }";
    const render = (body: string, use = 'const r = await res.json();\n  return r.media_url;') =>
      `export async function f(sku: string) {\n  const res = await fetch('https://h.example/v1/render', { method: 'POST', headers: ${H}, body: JSON.stringify(${body}) });\n  ${use}\n}\n`;

    it('becomes renderMockup with the composition and image references; a V1 answer read leaves it on V1', () => {
      const body =
        "{ scene_reference: 'Scene_a', perspective_reference: 'Perspective_b', product_reference: 'Product_c', image_reference: 'Image_d' }";
      const r = transformSource(render(body, 'const r = await res.json();'), 'a.ts');
      expect(r.output).toContain("import { renderMockup } from '@partner-print/render';");
      expect(r.output).toContain(
        "const r = await renderMockup(partnerPrint, { sceneReference: 'Scene_a', productReference: 'Product_c', perspectiveReference: 'Perspective_b', image: 'Image_d' });",
      );
      expect(r.output).not.toContain('createV1Adapter');
      expect(r.findings.map((f) => [f.kind, f.what])).toEqual([['rewritten', 'POST /render (fetch)']]);
      expect(transformSource(r.output, 'a.ts').changed).toBe(false);
      // renderMockup's result is not the V1 answer: a read of it would be undefined, so the call stays on V1.
      const read = transformSource(render(body), 'a.ts');
      expect(read.output).not.toContain('renderMockup(');
      expect(read.findings.map((f) => [f.kind, f.what])).toEqual([['todo', 'POST /render (fetch)']]);
      expect(read.findings[0]?.detail).toMatch(
        /^V1 call left as it is: it reads `media_url` of the V1 render answer/,
      );
      // A legacy SKU is looked up; a base64 image known only at run time goes through the adapter's upload.
      const bySku = transformSource(
        render(
          "{ scene_reference: 'Scene_a', perspective_reference: 'Perspective_b', sku, image: sku }",
          'await res.json();',
        ),
        'a.ts',
      );
      expect(bySku.output).toContain(
        "await renderMockup(partnerPrint, { sceneReference: 'Scene_a', productReference: await partnerPrintV1.productReference(sku), perspectiveReference: 'Perspective_b', image: await partnerPrintV1.uploadImage(sku) });",
      );
      expect(bySku.findings.map((f) => f.kind)).toEqual(['rewritten']);
    });

    it('imports renderMockup once, under a free name, in CommonJS as in ESM', () => {
      const cjs = `const fetch = require('node-fetch');\nconst renderMockup = 1;\n${render("{ scene_reference: 'Scene_a', perspective_reference: 'P', sku, image_reference: 'I' }", 'await res.json();').replace('export async function f(sku: string)', 'async function f(sku)')}module.exports = { f, renderMockup };\n`;
      const r = transformSource(cjs, 'a.cjs');
      expect(r.output).toContain("const { renderMockup: renderMockup2 } = require('@partner-print/render');");
      expect(r.output).toContain('await renderMockup2(partnerPrint, {');
      const twice = `${render("{ scene_reference: 'Scene_a', perspective_reference: 'P', sku, image_reference: 'I' }", 'await res.json();')}${render("{ scene_reference: 'Scene_b', perspective_reference: 'P', sku, image_reference: 'I' }", 'await res.json();').replace('function f', 'function g')}`;
      const esm = transformSource(twice, 'a.ts');
      expect(esm.output.split("from '@partner-print/render'").length - 1).toBe(1);
      expect(transformSource(esm.output, 'a.ts').changed).toBe(false);
    });

    it('a body that does not name exactly a composition and an image is marked with why', () => {
      const cases: Array<[string, RegExp]> = [
        [
          "{ composition_reference: 'Composition_a', image_reference: 'Image_b' }",
          /composition_reference: renderMockup finds/,
        ],
        [
          "{ scene_reference: 'Scene_a', product_reference: 'Product_c', image_reference: 'Image_d' }",
          /does not name perspective_reference/,
        ],
        [
          "{ scene_reference: 'Scene_a', perspective_reference: 'P', product_reference: 'Product_c', sku, image_reference: 'Image_d' }",
          /more than one product/,
        ],
        ["{ scene_reference: 'Scene_a', perspective_reference: 'P', sku }", /names no image/],
        [
          "{ scene_reference: 'Scene_a', perspective_reference: 'P', sku, image_reference: 'I', width: 800 }",
          /no V2 render equivalent \(width\)/,
        ],
        ['body', /not an object written out/],
      ];
      for (const [body, reason] of cases) {
        const r = transformSource(`const body = JSON.parse('{}');\n${render(body)}`, 'a.ts');
        expect(r.changed && !r.output.includes('await renderMockup'), body).toBe(true);
        expect(r.findings.find((f) => f.what === 'POST /render (fetch)')?.detail, body).toMatch(reason);
      }
    });
  });

  describe('POST /images', () => {
    const upload = (body: string, use: string) =>
      `const ART = '${PNG}';\nexport async function f(b64: string) {\n  const res = await fetch('https://h.example/v1/images', { method: 'POST', headers: { 'X-Partner-Code': 'A' }, body: JSON.stringify(${body}) });\n  ${use}\n}\n`;

    it('uploads the bytes of a written-out image, or the run-time base64 through the adapter; reference reads are the Image_ reference', () => {
      const literal = transformSource(
        upload('{ image: ART }', 'return (await res.json()).reference;'),
        'a.ts',
      );
      expect(literal.output).toContain(
        'const res = await partnerPrint.uploadImage(Uint8Array.from(atob(ART), (c) => c.charCodeAt(0)));\n  return res;',
      );
      expect(literal.output).not.toContain('createV1Adapter');
      const runtime = transformSource(
        upload('{ image_base64: b64 }', 'const data = await res.json();\n  return data.reference;'),
        'a.ts',
      );
      expect(runtime.output).toContain('const data = await partnerPrintV1.uploadImage(b64);\n  return data;');
      for (const r of [literal, runtime]) {
        expect(r.findings.map((f) => f.kind)).toEqual(['rewritten']);
        expect(transformSource(r.output, 'a.ts').changed).toBe(false);
      }
    });

    it('other reads of the answer, and other bodies, are marked', () => {
      const other = transformSource(
        upload('{ image: b64 }', 'const data = await res.json();\n  return data.url;'),
        'a.ts',
      );
      // Rewritten, they would read undefined of the Image_ reference: the call stays on V1.
      expect(other.output).not.toContain('uploadImage(');
      expect(other.findings.find((f) => f.what === 'POST /images (fetch)')?.detail).toMatch(
        /^V1 call left as it is: it reads `url` of the V1 upload answer/,
      );
      const whole = transformSource(upload('{ image: b64 }', 'return await res.json();'), 'a.ts');
      expect(whole.output).not.toContain('uploadImage(');
      expect(whole.findings.find((f) => f.what === 'POST /images (fetch)')?.kind).toBe('todo');
      const two = transformSource(
        upload('{ image: b64, name: "logo" }', 'return (await res.json()).reference;'),
        'a.ts',
      );
      expect(two.output).not.toContain('uploadImage');
      expect(two.findings[0]?.detail).toMatch(/is not one base64 image field/);
    });
  });

  describe('GET /stock', () => {
    const stock = (use: string) =>
      `export async function f() {\n  const res = await fetch('https://h.example/v1/stock', { headers: { 'X-Partner-Code': 'A' } });\n  const stock = await res.json();\n  ${use}\n}\n`;
    const rewritten = (use: string) => {
      const r = transformSource(stock(use), 'a.ts');
      expect(transformSource(r.output, 'a.ts').changed, use).toBe(false);
      return r;
    };

    it('quantities read → the warehouse items, SKUs alone → the products (legacyItemSKU), renamed', () => {
      const items = rewritten('return stock.map((e) => [e.logical_quantity, e.physical_quantity]);');
      expect(items.output).toContain("const stock = await partnerPrint.collect('/items');");
      expect(items.output).toContain('return stock.map((e) => [e.logicalQuantity, e.physicalQuantity]);');
      expect(items.findings.map((f) => f.detail)).toEqual(['→ GET /items through the V2 client']);
      const products = rewritten('for (const e of stock) console.log(e.sku);');
      expect(products.output).toContain("const stock = await partnerPrint.collect('/products');");
      expect(products.output).toContain('for (const e of stock) console.log(e.legacyItemSKU);');
      expect(products.findings.map((f) => f.kind)).toEqual(['rewritten']);
    });

    it('what has no documented V2 equivalent is left and marked, once per statement', () => {
      const sku = rewritten('return stock.filter((e) => e.logical_quantity > 0).map((e) => e.sku);');
      expect(sku.output).toContain('e.logicalQuantity > 0).map((e) => e.sku)');
      expect(sku.findings.map((f) => f.what)).toEqual(['GET /stock (fetch)', 'V1 response field sku']);
      // Used in a shape the V2 lists do not have, or read for a field they do not document: left on V1, marked.
      for (const use of [
        'return stock;',
        'return stock.find((e) => e.logical_quantity > 0);',
        'return stock.map((e) => e);',
        'return stock.map((e) => e.available);',
        'return stock.map((e) => e.reorder_point + e.logical_quantity);',
      ]) {
        const r = rewritten(use);
        expect(r.output, use).not.toContain('partnerPrint');
        expect(r.output, use).toContain("fetch('https://h.example/v1/stock'");
        expect(
          r.findings.filter((f) => f.what === 'GET /stock (fetch)').map((f) => f.kind),
          use,
        ).toEqual(['todo']);
      }
      expect(rewritten('return stock.map((e) => e.reorder_point);').findings[0]?.detail).toMatch(
        /reads `reorder_point` of a V1 stock entry/,
      );
      // A query the V2 lists do not document.
      const query = transformSource(
        stock('return stock;').replace('/v1/stock', '/v1/stock?warehouse=NL'),
        'a.ts',
      );
      expect(query.output).not.toContain('collect(');
    });
  });
});
