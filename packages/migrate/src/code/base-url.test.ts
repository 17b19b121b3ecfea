import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rewriteTwice, todos } from '../../test/rewrite.ts';
import { TODO_TAG } from './todo.ts';
import { transformSource } from './transform.ts';

const HEADERS = `const HEADERS = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY ?? '' };\n`;
const getOrder = (url: string, name = 'getOrder') =>
  `export async function ${name}(ref: string) {\n  const res = await fetch(${url} + '/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).reference;\n}\n`;
const V1 = 'https://api.partner-print.example/v1';
const V2 = 'https://api.partner-print.example/v2';
const TEST_V1 = 'https://api.test.partner-print.example/v1';
const TEST_V2 = 'https://api.test.partner-print.example/v2';

/** The first run's output and findings; a second run must change nothing, add no TODO and rewrite nothing. */
function rewrite(text: string, file = 'a.ts') {
  const result = rewriteTwice(text, file);
  expect(result.again.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
  return result;
}
const clientLine = (output: string) => output.split('\n').find((l) => l.includes('createClient({'));
const todoAbove = (output: string, line: string | undefined) => {
  const lines = output.split('\n');
  return lines[lines.indexOf(line ?? '') - 1] ?? '';
};

describe('a V1 base URL read at run time', () => {
  it.each(['||', '??'])(
    '`process.env.X %s <V1 URL>` keeps the variable and its V1 value, the client turning its /v1 to /v2, and one TODO naming it',
    (op) => {
      const r = rewrite(
        `const BASE_URL = process.env.PP_URL ${op} '${V1}';\n${HEADERS}${getOrder('BASE_URL')}`,
      );
      const client = clientLine(r.output);
      expect(client).toContain(
        `baseUrl: (process.env.PP_URL ${op} '${V1}').replace(/\\/v1\\/*$/, '/v2') });`,
      );
      const todo = todoAbove(r.output, client);
      expect(todo).toContain(TODO_TAG);
      expect(todo).toContain('process.env.PP_URL');
      expect(todo).toContain('it may hold the V1 base URL (ending in /v1) or the V2 one');
      expect(todo).toContain('ending in /v2');
      expect(todos(r.output)).toBe(1);
      expect(r.findings.map((f) => [f.kind, f.what])).toEqual([
        ['todo', 'V1 base URL read from process.env.PP_URL'],
        ['rewritten', 'GET /orders?partner_reference=… (fetch)'],
      ]);
      expect(r.findings[0]?.line).toBe(1);
    },
  );

  it('an axios instance and a fetch wrapper on such a base keep it too', () => {
    const axios = rewrite(
      `import axios from 'axios';\nconst api = axios.create({ baseURL: process.env.PP_URL ?? '${V1}', headers: { 'X-Partner-Code': 'A' } });\nexport async function get(ref: string) {\n  return (await api.get(\`/orders?partner_reference=\${ref}\`)).data.reference;\n}\n`,
    );
    expect(clientLine(axios.output)).toContain(
      `baseUrl: (process.env.PP_URL ?? '${V1}').replace(/\\/v1\\/*$/, '/v2') });`,
    );
    const wrapper = rewrite(
      `const BASE = process.env.PP_URL || '${V1}';\n${HEADERS}async function request(path: string, init: RequestInit = {}) {\n  const res = await fetch(BASE + path, { ...init, headers: HEADERS });\n  return res.json();\n}\nexport async function getOrder(ref: string) {\n  const order = await request('/orders?partner_reference=' + ref);\n  return order.reference;\n}\n`,
    );
    expect(wrapper.output).toContain(
      `baseUrl: (process.env.PP_URL || '${V1}').replace(/\\/v1\\/*$/, '/v2') });`,
    );
  });

  it('a file that keeps a V1 call on the variable runs with one value of it: the V2 client derives its base URL from the V1 one', () => {
    const left = `export async function tracking(ref: string) {\n  const res = await fetch(BASE_URL + '/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).tracking_code;\n}\n`;
    const r = rewrite(
      `const BASE_URL = process.env.PP_URL || '${V1}';\n${HEADERS}${getOrder('BASE_URL')}${left}`,
    );
    expect(r.findings.map((f) => [f.kind, f.what])).toEqual([
      ['todo', 'V1 base URL read from process.env.PP_URL'],
      ['todo', 'V1 base URL'],
      ['todo', 'V1 credential header'],
      ['rewritten', 'GET /orders?partner_reference=… (fetch)'],
      ['todo', 'GET /orders?partner_reference=… (fetch)'],
    ]);
    // What the client and the call left on V1 go to, for each value the variable may hold.
    const base = /baseUrl: (.*) \}\);$/.exec(clientLine(r.output) ?? '')?.[1] ?? '';
    const v1Base = /^const BASE_URL = (.*);$/m.exec(r.output)?.[1] ?? '';
    const at = (code: string, PP_URL: string | undefined) =>
      new Function('process', `return ${code};`)({ env: { PP_URL } }) as string;
    for (const [value, v2, v1] of [
      [undefined, V2, V1],
      ['', V2, V1],
      [TEST_V1, TEST_V2, TEST_V1],
      [`${TEST_V1}/`, TEST_V2, `${TEST_V1}/`],
      // Set to V2's already (as an older TODO asked): the client takes it as it is, and the V1 call left on the
      // variable goes to /v1 of the same host, never with V1 headers to V2.
      [TEST_V2, TEST_V2, TEST_V1],
      [`${TEST_V2}/`, `${TEST_V2}/`, `${TEST_V1}/`],
      // Any other value: both read it as they did.
      ['https://elsewhere.example/api', 'https://elsewhere.example/api', 'https://elsewhere.example/api'],
    ] as const) {
      expect(at(base, value), String(value)).toBe(v2);
      expect(at(v1Base, value), String(value)).toBe(v1);
    }
    // The V1 literal in the client's base URL is the client's, not V1 left over: one TODO above the client.
    expect(todoAbove(r.output, clientLine(r.output))).toContain('derived from process.env.PP_URL');
    expect(todos(r.output)).toBe(4);
  });

  it('a run-time host (https://<host>/v1) is kept; only /v1 becomes /v2, with no TODO', () => {
    const r = rewrite(
      `const host = process.env.PP_HOST ?? 'api.partner-print.example';\nconst BASE = \`https://\${host}/v1\`;\n${HEADERS}${getOrder('BASE')}`,
    );
    expect(clientLine(r.output)).toContain(
      `baseUrl: \`https://\${process.env.PP_HOST ?? 'api.partner-print.example'}/v2\` });`,
    );
    expect(todos(r.output)).toBe(0);
  });

  it('a run-time host with no fallback keeps the order reads rewritten: the host is not part of the order identifier', () => {
    const base = `const BASE = \`https://\${process.env.PP_HOST}/v1\`;\n${HEADERS}`;
    const r = rewrite(
      `${base}${getOrder('BASE')}export async function lookup(id: string) {\n  const res = await fetch(\`\${BASE}/orders?partner_reference=\${id}\`, { headers: HEADERS });\n  return (await res.json()).reference;\n}\n`,
    );
    expect(clientLine(r.output)).toContain(`baseUrl: \`https://\${process.env.PP_HOST}/v2\` });`);
    expect(r.findings.map((f) => [f.kind, f.what])).toEqual([
      ['rewritten', 'GET /orders?partner_reference=… (fetch)'],
      ['rewritten', 'GET /orders?partner_reference=… (fetch)'],
    ]);
    expect(r.output).toContain('orderReference: await partnerPrintV1.orderReferenceByPartnerReference(ref)');
    expect(r.output).toContain('orderReference: await partnerPrintV1.orderReferenceByPartnerReference(id)');
    // A part of a path segment is still no identifier, wherever the host comes from.
    const part = rewrite(
      `${base}export async function get(n: number) {\n  const res = await fetch(\`\${BASE}/orders/ACME1-\${n}\`, { headers: HEADERS });\n  return (await res.json()).reference;\n}\n`,
    );
    expect(part.findings.find((f) => f.what.startsWith('GET'))?.detail).toContain('not one value');
  });

  it('is read after what runs before it (dotenv): the client is created where the constant was', () => {
    const r = rewrite(
      `'use strict';\nconst fetch = require('node-fetch');\nrequire('dotenv').config();\nconst BASE_URL = process.env.PP_URL || '${V1}';\n${HEADERS}${getOrder('BASE_URL')}`,
      'a.js',
    );
    const lines = r.output.split('\n');
    const dotenv = lines.indexOf("require('dotenv').config();");
    expect(dotenv).toBeGreaterThan(0);
    expect(lines.findIndex((l) => l.includes('createClient({'))).toBeGreaterThan(dotenv);
    expect(lines.findIndex((l) => l.includes('createV1Adapter('))).toBeGreaterThan(dotenv);
    expect(lines.findIndex((l) => l.includes("require('@partner-print/client')"))).toBeLessThan(dotenv);
  });

  it('a ternary of two V1 base URLs keeps its condition, each branch turned to V2 (test stays test)', () => {
    const r = rewrite(
      `const BASE = process.env.NODE_ENV === 'production' ? '${V1}' : '${TEST_V1}';\n${HEADERS}${getOrder('BASE')}`,
    );
    expect(clientLine(r.output)).toContain(
      `baseUrl: process.env.NODE_ENV === 'production' ? '${V2}' : '${TEST_V2}' });`,
    );
    expect(r.output).not.toContain('/v1');
    expect(todos(r.output)).toBe(0);
    expect(r.findings.map((f) => [f.kind, f.what])).toEqual([
      ['rewritten', 'GET /orders?partner_reference=… (fetch)'],
    ]);
    // Through a constant per branch, and nested (three environments): the same.
    const nested = rewrite(
      `const PROD = '${V1}';\nconst BASE = process.env.APP_ENV === 'prod' ? PROD : process.env.APP_ENV === 'staging' ? '${TEST_V1}' : 'http://localhost:8080/v1';\n${HEADERS}${getOrder('BASE')}`,
    );
    expect(clientLine(nested.output)).toContain(
      `baseUrl: process.env.APP_ENV === 'prod' ? '${V2}' : (process.env.APP_ENV === 'staging' ? '${TEST_V2}' : 'http://localhost:8080/v2') });`,
    );
  });

  it('what cannot be kept soundly is marked, never rewritten with a fixed URL', () => {
    const cases: Record<string, string> = {
      // read each time the call runs; the client is made once
      'read in the function': `${HEADERS}${getOrder(`(process.env.PP_URL ?? '${V1}')`)}`,
      // a parameter is not there where the client is created
      'a parameter host': `${HEADERS}export async function createOrder(host: string, body: unknown) {\n  const res = await fetch(\`https://\${host}/v1/orders\`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });\n  return (await res.json()).reference;\n}\n`,
      // the variable holds more than the base URL
      'an endpoint URL': `const ORDERS = process.env.PP_ORDERS_URL ?? '${V1}/orders';\n${HEADERS}export async function createOrder(body: unknown) {\n  const res = await fetch(ORDERS, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });\n  return (await res.json()).reference;\n}\n`,
      'a config object': `const config = { baseUrl: process.env.PP_URL ?? '${V1}' };\n${HEADERS}${getOrder('config.baseUrl')}`,
      // a branch only known at run time, or a branch that is no V1 base URL
      'a ternary with a run-time branch': `const BASE = process.env.NODE_ENV === 'production' ? '${V1}' : process.env.PP_TEST_URL;\n${HEADERS}${getOrder('BASE')}`,
      'a ternary with an endpoint branch': `const BASE = process.env.NODE_ENV === 'production' ? '${V1}' : '${TEST_V1}/orders';\n${HEADERS}${getOrder('BASE')}`,
      // the client reads the condition once; this call reads it each time it runs
      'a ternary read in the function': `${HEADERS}${getOrder(`(process.env.PP_LIVE ? '${V1}' : '${TEST_V1}')`)}`,
      'a ternary on a parameter': `${HEADERS}export async function getOrder(ref: string, live: boolean) {\n  const res = await fetch((live ? '${V1}' : '${TEST_V1}') + '/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).reference;\n}\n`,
    };
    for (const [name, text] of Object.entries(cases)) {
      const r = rewrite(text);
      expect(r.output, name).not.toContain('createClient');
      expect(
        r.findings.filter((f) => f.kind === 'rewritten'),
        name,
      ).toEqual([]);
      const call = r.findings.find((f) => /^(GET|POST) /.test(f.what));
      expect(call?.detail, name).toMatch(/^V1 call left as it is: (its|the) (base )?URL/);
    }
  });

  it('a second base URL in the file (the test environment) is marked, not sent to the first one', () => {
    const r = rewrite(
      `const PROD = '${V1}';\nconst TEST = 'https://api.test.partner-print.example/v1';\n${HEADERS}${getOrder('PROD')}${getOrder('TEST', 'getTestOrder')}`,
    );
    expect(clientLine(r.output)).toContain(`baseUrl: '${V2}' });`);
    expect(r.findings.filter((f) => f.kind === 'rewritten').length).toBe(1);
    const marked = r.findings.find((f) => f.what.startsWith('GET') && f.kind === 'todo');
    expect(marked?.detail).toContain('https://api.test.partner-print.example/v1');
    expect(r.output).toContain("fetch(TEST + '/orders?partner_reference=' + ref");
  });
});

describe('a file an earlier version rewrote is repaired by a new run', () => {
  const left = `export async function tracking(ref: string) {\n  const res = await fetch(BASE_URL + '/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).tracking_code;\n}\n`;
  // The TODOs the earlier versions wrote above the client (74bf0d2 and ad51cc8), word for word.
  const OLD_TODO_ENV_V2 =
    'the V2 base URL is read from process.env.PP_URL, as the V1 one was: where it is set, it must now hold the V2 base URL (ending in /v2) of the same environment (production or test); with a /v1 URL left in it, createClient throws V1CredentialsError.';
  const OLD_TODO_KEEP_V1 =
    'the V2 base URL is derived from process.env.PP_URL, as the V1 one was read from it: keep the V1 base URL (ending in /v1) of the environment (production or test) there while V1 calls of this file read it; the V2 client takes it with /v1 turned to /v2 (the same host), and a V2 base URL (ending in /v2) there as it is; any other value makes createClient throw.';
  const v1Read = String.raw`process.env.PP_URL?.replace(/\/v2(\/*)$/, '/v1$1')`;

  it.each(['||', '??'])(
    'a client on `process.env.PP_URL %s <V2 URL>` with V1 calls left reading PP_URL as V1 becomes what this version writes',
    (op) => {
      const current = rewrite(
        `const BASE_URL = process.env.PP_URL ${op} '${V1}';\n${HEADERS}${getOrder('BASE_URL')}${left}`,
      ).output;
      const reason =
        /TODO\(partner-print v2\): (the V2 base URL is derived[^—]*?) —/.exec(current)?.[1] ?? '';
      expect(reason).not.toBe('');
      expect(current).toContain(v1Read);
      const derived = `(process.env.PP_URL ${op} '${V1}').replace(/\\/v1\\/*$/, '/v2')`;
      expect(current).toContain(derived);
      // What 74bf0d2..ad51cc8 wrote: the client on PP_URL with a /v2 fallback, the V1 call reading PP_URL as it was.
      const oldest = current
        .replace(v1Read, 'process.env.PP_URL')
        .replace(derived, `process.env.PP_URL ${op} '${V2}'`)
        .replace(reason, OLD_TODO_ENV_V2);
      // What ad51cc8..1108026 wrote: the client derived, the V1 call reading PP_URL as it was.
      const older = current.replace(v1Read, 'process.env.PP_URL').replace(reason, OLD_TODO_KEEP_V1);
      for (const [name, old] of [
        ['74bf0d2', oldest],
        ['ad51cc8', older],
      ] as const) {
        expect(old, name).not.toBe(current);
        const r = rewriteTwice(old);
        expect(r.output, name).toBe(current);
        expect(
          r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what),
          name,
        ).toEqual(['V2 client of an earlier run']);
      }
    },
  );

  it('an earlier client with no V1 call left is repaired too: it then takes a /v1 or a /v2 value', () => {
    const current = rewrite(
      `const BASE_URL = process.env.PP_URL || '${V1}';\n${HEADERS}${getOrder('BASE_URL')}`,
    ).output;
    const derived = `(process.env.PP_URL || '${V1}').replace(/\\/v1\\/*$/, '/v2')`;
    expect(current).toContain(derived);
    const reason = /TODO\(partner-print v2\): (the V2 base URL is derived[^—]*?) —/.exec(current)?.[1] ?? '';
    const old = current.replace(derived, `process.env.PP_URL || '${V2}'`).replace(reason, OLD_TODO_ENV_V2);
    expect(rewriteTwice(old).output).toBe(current);
  });
});

describe('a V2 client the partner wrote on a V2 base-URL variable', () => {
  it('is left as it is when no V1 code of the file reads that variable and no earlier run marked it', () => {
    const mine = `import { createClient } from '@partner-print/client';\nconst partnerPrint = createClient({ secretKey: process.env.PP_SECRET ?? '', baseUrl: process.env.PP_V2_URL ?? '${V2}' });\nconst V1_BASE = '${V1}';\n${HEADERS}export async function tracking(ref: string) {\n  const res = await fetch(V1_BASE + '/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).tracking_code;\n}\nexport const orders = () => partnerPrint.collect('/orders');\n`;
    const r = rewriteTwice(mine);
    expect(clientLine(r.output)).toBe(clientLine(mine));
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
  });
});

describe('the corpus module an earlier version rewrote (CommonJS, node-fetch)', () => {
  const read = (path: string) => readFileSync(new URL(`../../test/${path}`, import.meta.url), 'utf8');
  const golden = read('code-corpus/cjs-node-fetch/expected/partner-print.js');
  const callTodo = (s: string) => s.split('\n').find((l) => l.includes('V1 call left as it is')) ?? '';
  it.each(['74bf0d2', 'ad51cc8'])('as %s wrote it becomes what this version writes', (commit) => {
    const old = read(`fixtures/earlier-runs/cjs-node-fetch-${commit}.js`);
    const r = rewriteTwice(old, 'partner-print.js', {
      stores: { ACME1: 'Store_tGE0NHjohySteoIVhpOEDzxjkU' },
    });
    expect(r.error).toBeUndefined();
    // The V1 call's TODO an earlier version wrote (another reason, same call) stays: one TODO per statement.
    expect(r.output).toBe(golden.replace(callTodo(golden), callTodo(old)));
    expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
      'V2 client of an earlier run',
    ]);
  });
});

describe('the oldest output (a client on a fixed /v2 URL) of a module with a V1 call left on an environment base URL', () => {
  const read = (path: string) => readFileSync(new URL(`../../test/${path}`, import.meta.url), 'utf8');
  const options = { stores: { ACME1: 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } };
  const lineOf = (s: string, start: string) => s.split('\n').find((l) => l.startsWith(start)) ?? '';
  const todoAbove = (s: string, start: string) => {
    const lines = s.split('\n');
    return lines[lines.findIndex((l) => l.startsWith(start)) - 1] ?? '';
  };
  it('as 8fc483d wrote it: the client derives its base URL from the variable the V1 base URL left reads, as this version writes it', () => {
    const old = read('fixtures/earlier-runs/cjs-node-fetch-left-8fc483d.js');
    const current = transformSource(
      read('fixtures/earlier-runs/cjs-node-fetch-left.input.js'),
      'partner-print.js',
      options,
    ).output;
    const r = rewriteTwice(old, 'partner-print.js', options);
    expect(r.error).toBeUndefined();
    for (const start of ['const partnerPrint = ', 'const BASE_URL = '])
      expect(lineOf(r.output, start), start).toBe(lineOf(current, start));
    expect(todoAbove(r.output, 'const partnerPrint = ')).toBe(todoAbove(current, 'const partnerPrint = '));
    // The same lines as this version writes, the client where the earlier run put it.
    expect(r.output.split('\n').sort()).toEqual(current.split('\n').sort());
    expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
      'V2 client of an earlier run',
    ]);
    // The test environment's V1 base URL: the V2 client goes to the test host's /v2.
    const base = /baseUrl: (.*) \}\);$/.exec(lineOf(r.output, 'const partnerPrint = '))?.[1] ?? '';
    const at = (PP_URL: string | undefined) =>
      new Function('process', `return ${base};`)({ env: { PP_URL } }) as string;
    expect(at(TEST_V1)).toBe(TEST_V2);
    expect(at(undefined)).toBe(V2);
  });

  it('as 0488d73 wrote it, the V1 base URL removed with every call rewritten: nothing names the variable, the client is left as it is', () => {
    const old = read('fixtures/earlier-runs/cjs-node-fetch-0488d73.js');
    const r = rewriteTwice(old, 'partner-print.js', options);
    expect(lineOf(r.output, 'const partnerPrint = ')).toBe(lineOf(old, 'const partnerPrint = '));
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
  });

  it("a client on a fixed /v2 URL with no earlier run's TODO in the file is the partner's: left as it is", () => {
    const old = read('fixtures/earlier-runs/cjs-node-fetch-left-8fc483d.js').replace(
      /^\/\/ TODO\(partner-print v2\): the V1 base URL is still used.*\n/m,
      '',
    );
    const r = rewriteTwice(old, 'partner-print.js', options);
    expect(lineOf(r.output, 'const partnerPrint = ')).toBe(lineOf(old, 'const partnerPrint = '));
  });
});

describe('V1 calls left on a base-URL variable in a file without a V2 client', () => {
  it('read it as the files with one do (a /v2 value as /v1 of the same host): another file’s client may derive its base URL from that variable', () => {
    // tracking.ts of a run whose orders.ts got a client on process.env.PP_URL, which may now hold V2's base URL.
    const tracking = `const BASE_URL = process.env.PP_URL || '${V1}';\n${HEADERS}export async function tracking(ref: string) {\n  const res = await fetch(BASE_URL + '/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).tracking_code;\n}\n`;
    const r = rewrite(tracking);
    expect(r.output).not.toContain('createClient');
    const v1Base = /^const BASE_URL = (.*);$/m.exec(r.output)?.[1] ?? '';
    const at = (PP_URL: string | undefined) =>
      new Function('process', `return ${v1Base};`)({ env: { PP_URL } }) as string;
    expect(at(undefined)).toBe(V1);
    expect(at(TEST_V1)).toBe(TEST_V1);
    expect(at(TEST_V2)).toBe(TEST_V1);
  });

  it('two or more calls left on one such constant read it once through the /v2 → /v1 turn (it was turned once per call: a crash)', () => {
    const left = (name: string) =>
      `export async function ${name}(code: string) {\n  await fetch(\`\${BASE}/orders/\${code}/cancel-all-lines\`, { method: 'POST', headers: HEADERS });\n}\n`;
    const calls = [left('cancel'), left('cancelAgain'), left('cancelOnceMore')].join('\n');
    for (const text of [
      `const BASE = process.env.PP_URL || '${V1}';\n${HEADERS}\n${calls}`,
      // With a V2 client too (one call rewritten).
      `const BASE = process.env.PP_URL || '${V1}';\n${HEADERS}\n${getOrder('BASE')}\n${calls}`,
    ]) {
      const r = rewrite(text);
      expect(r.error).toBeUndefined();
      expect(r.findings.filter((f) => /cancel-all-lines/.test(f.what))).toHaveLength(3);
      expect(r.output).toContain(
        `const BASE = process.env.PP_URL?.replace(/\\/v2(\\/*)$/, '/v1$1') || '${V1}';`,
      );
    }
  });
});
