// A V1 call in one module and the catch that reads the V1 library's error (axios's `e.response.status`) in the
// module that imports and calls it: within one run over the directory, the call stays on V1, marked, as it does
// when both are in one file. Run before and after the rewrite: the V1 code against a V1 stub, the rewritten code
// with its V2 calls routed to the sandbox.

import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catchesElsewhere } from '../src/code/importers.ts';
import { migrateCode } from '../src/code/run.ts';
import { TODO_TAG } from '../src/code/todo.ts';
import { newSandbox, tempDir } from './helpers.ts';
import { todos } from './rewrite.ts';

const API = `'use strict';
const axios = require('axios');

const api = axios.create({
  baseURL: 'https://api.partner-print.example/v1',
  headers: { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY },
});

async function orderReference(ref) {
  const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);
  return data.order_reference;
}

module.exports = { orderReference };
`;
const ROUTES = `'use strict';
const { orderReference } = require('./api');

/** null for an order V1 does not know. */
async function lookup(ref) {
  try {
    return await orderReference(ref);
  } catch (e) {
    if (e.response && e.response.status === 404) return null;
    throw e;
  }
}

module.exports = { lookup };
`;

/** V1's order read, as axios sees it: a known order, or axios's error with the 404 response. */
const v1Reads: string[] = [];
const axiosStub = {
  create: (config: { baseURL: string }) => ({
    get: async (path: string) => {
      const url = `${config.baseURL}${path}`;
      v1Reads.push(url);
      if (url === 'https://api.partner-print.example/v1/orders?partner_reference=shop-17')
        return { data: { order_reference: 'shop-17', status: 'shipped' } };
      throw Object.assign(new Error('Request failed with status code 404'), { response: { status: 404 } });
    },
  }),
};

/** The two modules, run as CommonJS: `require('./api')` gets the first, the SDK packages and axios their own. */
async function load(dir: string): Promise<{ lookup(ref: string): Promise<unknown> }> {
  const packages: Record<string, unknown> = {
    axios: axiosStub,
    '@partner-print/client': await import('@partner-print/client'),
    '@partner-print/migrate': await import('@partner-print/migrate'),
  };
  const run = (file: string) => {
    const module = { exports: {} };
    new Function('require', 'module', 'exports', readFileSync(join(dir, file), 'utf8'))(
      (id: string) => packages[id],
      module,
      module.exports,
    );
    return module.exports;
  };
  packages['./api'] = run('api.js');
  return run('routes.js') as { lookup(ref: string): Promise<unknown> };
}

let sandbox: ReturnType<typeof newSandbox>;
const V2_BASE = 'https://api.partner-print.example/v2';
const v2Requests: string[] = [];
beforeEach(() => {
  sandbox = newSandbox();
  v1Reads.length = 0;
  v2Requests.length = 0;
  // A rewritten module's V2 client uses the global fetch on the V1 host's /v2: routed to the sandbox.
  vi.stubGlobal('fetch', (input: Request | string | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(V2_BASE)) throw new Error(`unexpected request to ${url}`);
    v2Requests.push(url);
    const target = sandbox.baseUrl + url.slice(V2_BASE.length);
    return sandbox.fetch(input instanceof Request ? new Request(target, input) : target, init);
  });
  vi.stubEnv('PARTNER_PRINT_SECRET_KEY', sandbox.keys.primary);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('a catch in another file that reads the V1 error', () => {
  it('leaves the call it catches on V1, marked and reported, so the caller still answers null for an unknown order; a second run changes nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.js'), API);
    writeFileSync(join(dir, 'routes.js'), ROUTES);

    // Before: the V1 code against V1.
    const before = await load(dir);
    expect(await before.lookup('shop-17')).toBe('shop-17');
    expect(await before.lookup('shop-404')).toBeNull();

    const first = await migrateCode([dir], { mode: 'write', cwd: dir });
    const api = first.files.find((f) => f.path === 'api.js')!;
    const call = api.findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('called as `orderReference` in routes.js');
    expect(call?.detail).toContain('reads `e.response`');
    const written = readFileSync(join(dir, 'api.js'), 'utf8');
    expect(todos(written.split('async function orderReference')[1] ?? '')).toBe(1);
    expect(written).toContain(
      `${TODO_TAG} V1 call left as it is: it is called as \`orderReference\` in routes.js`,
    );
    expect(readFileSync(join(dir, 'routes.js'), 'utf8')).toBe(ROUTES);

    // After: the same answers, from V1; nothing reaches V2 with the call.
    v1Reads.length = 0;
    const after = await load(dir);
    expect(await after.lookup('shop-17')).toBe('shop-17');
    expect(await after.lookup('shop-404')).toBeNull();
    expect(v1Reads).toEqual([
      'https://api.partner-print.example/v1/orders?partner_reference=shop-17',
      'https://api.partner-print.example/v1/orders?partner_reference=shop-404',
    ]);
    expect(v2Requests).toEqual([]);

    // Idempotent: a second run over the output writes nothing and adds no TODO.
    const again = await migrateCode([dir], { mode: 'write', cwd: dir });
    expect(again.files.map((f) => f.status)).toEqual(['unchanged', 'unchanged']);
    expect(readFileSync(join(dir, 'api.js'), 'utf8')).toBe(written);
    expect(again.totals.todo).toBe(first.totals.todo);
  });

  const ESM_API = API.replace("'use strict';\nconst axios = require('axios');", "import axios from 'axios';")
    .replace('async function orderReference(ref)', 'export async function orderReference(ref: string)')
    .replace('module.exports = { orderReference };\n', 'export default orderReference;\n');
  const tryAround = (call: string) =>
    `export async function lookup(ref: string) {\n  try {\n    return await ${call};\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`;
  it.each([
    [
      'a named import (./api.js naming api.ts)',
      `import { orderReference as find } from './api.js';\n${tryAround('find(ref)')}`,
    ],
    ['a default import', `import find from './api';\n${tryAround('find(ref)')}`],
    ['a namespace import', `import * as api from './api';\n${tryAround('api.orderReference(ref)')}`],
    [
      'require, destructured and renamed',
      `const { orderReference: find } = require('./api');\n${tryAround('find(ref)')}`,
    ],
    ['require of the module', `const api = require('./api');\n${tryAround('api.orderReference(ref)')}`],
    [
      'a .catch on the call',
      `import { orderReference } from './api';\nexport const lookup = (ref: string) => orderReference(ref).catch((e) => (e.response?.status === 404 ? null : Promise.reject(e)));\n`,
    ],
    [
      'a .then(onOk, onErr) on the call',
      `import { orderReference } from './api';\nexport const lookup = (ref: string) =>\n  orderReference(ref).then(\n    (r) => r,\n    (e) => (e.response?.status === 404 ? null : Promise.reject(e)),\n  );\n`,
    ],
    [
      'a .then(onOk, onErr) with a handler of the importing file',
      `import { orderReference } from './api';\nfunction onError(e: any) {\n  return e.response?.status === 404 ? null : Promise.reject(e);\n}\nexport const lookup = (ref: string) => orderReference(ref).then((r) => r, onError);\n`,
    ],
    [
      'an Express route passing the error to next(), its error middleware in the same file',
      `import { orderReference } from './api';\nexport async function route(req: any, res: any, next: any) {\n  orderReference(req.params.ref).then((o) => res.json(o), next);\n}\nexport function onError(err: any, _req: any, res: any, _next: any) {\n  res.status(err.response?.status ?? 500).json(err.response?.data);\n}\n`,
    ],
    [
      'the function passed by name to map, the Promise.all inside a try',
      `import { orderReference } from './api';\n${tryAround('Promise.all([ref].map(orderReference))')}`,
    ],
    [
      'the function passed by name from a namespace import',
      `import * as api from './api';\n${tryAround('Promise.all([ref].map(api.orderReference))')}`,
    ],
    [
      'the promise kept in an array of the importing file, Promise.all of it awaited in a try',
      "import { orderReference } from './api';\nexport async function lookup(ref: string) {\n  const pending = [orderReference(ref)];\n  try {\n    return (await Promise.all(pending))[0];\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n",
    ],
    [
      "Bluebird's .asCallback on the call, its callback reading err.response",
      "import Bluebird from 'bluebird';\nimport { orderReference } from './api';\nexport function lookup(ref: string, done: (e: unknown, r?: unknown) => void) {\n  Bluebird.resolve(orderReference(ref)).asCallback((err: any, r: unknown) => done(err?.response?.status === 404 ? null : err, r));\n}\n",
    ],
    [
      'a try around a caller of the call, in the importing file',
      `import { orderReference } from './api';\nconst find = (ref: string) => orderReference(ref);\n${tryAround('find(ref)')}`,
    ],
  ])(
    'ESM and TypeScript: %s marks the call in api.ts (one TODO); a second run changes nothing',
    async (_, caller) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'api.ts'), ESM_API);
      writeFileSync(join(dir, 'routes.ts'), caller);
      const first = await migrateCode([dir], { mode: 'write', cwd: dir });
      const call = first.files
        .find((f) => f.path === 'api.ts')!
        .findings.find((f) => f.what.startsWith('GET /orders'));
      expect(call?.kind).toBe('todo');
      expect(call?.detail).toContain('in routes.ts');
      const written = readFileSync(join(dir, 'api.ts'), 'utf8');
      expect(todos(written.split('async function orderReference')[1] ?? '')).toBe(1);
      const again = await migrateCode([dir], { mode: 'write', cwd: dir });
      expect(again.files.map((f) => f.status)).toEqual(['unchanged', 'unchanged']);
      expect(readFileSync(join(dir, 'api.ts'), 'utf8')).toBe(written);
    },
  );

  it.each([
    [
      'an anonymous default export, imported as a default',
      {
        'api.ts': ESM_API.replace(
          'export async function orderReference(ref: string)',
          'export default async function (ref: string)',
        ).replace('export default orderReference;\n', ''),
      },
      `import find from './api';\n${tryAround('find(ref)')}`,
    ],
    [
      'an anonymous default arrow, imported as a default',
      {
        'api.ts': ESM_API.replace(
          'export async function orderReference(ref: string) {',
          'export default async (ref: string) => {',
        ).replace('export default orderReference;\n', ''),
      },
      `import find from './api';\n${tryAround('find(ref)')}`,
    ],
    [
      'a re-export (export { f } from)',
      { 'api.ts': ESM_API, 'index.ts': "export { orderReference } from './api';\n" },
      `import { orderReference } from './index';\n${tryAround('orderReference(ref)')}`,
    ],
    [
      'a renamed re-export of a re-export, through require',
      {
        'api.ts': ESM_API,
        'orders.ts': "export { orderReference as find } from './api.js';\n",
        'index.ts': "export * from './orders';\n",
      },
      `const { find } = require('./index');\n${tryAround('find(ref)')}`,
    ],
    [
      'an object of functions as the default export, its function called on the default import',
      {
        'api.ts': ESM_API.replace('export default orderReference;\n', 'export default { orderReference };\n'),
      },
      `import api from './api';\n${tryAround('api.orderReference(ref)')}`,
    ],
    [
      'a re-export of the default',
      { 'api.ts': ESM_API, 'index.ts': "export { default as find } from './api';\n" },
      `import { find } from './index';\n${tryAround('find(ref)')}`,
    ],
  ])('ESM: %s marks the call in api.ts (one TODO)', async (_, modules: Record<string, string>, caller) => {
    const dir = tempDir();
    for (const [file, text] of Object.entries(modules)) writeFileSync(join(dir, file), text);
    writeFileSync(join(dir, 'routes.ts'), caller);
    const first = await migrateCode([dir], { mode: 'write', cwd: dir });
    const call = first.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('in routes.ts');
    const api = readFileSync(join(dir, 'api.ts'), 'utf8');
    expect(api).toContain(`${TODO_TAG} V1 call left as it is: it is called as`);
    expect(todos(api.slice(api.indexOf('(ref: string)')))).toBe(1);
  });

  describe('an Express error middleware in another file of the run reading err.response', () => {
    const APP = `import express from 'express';\nimport { router } from './routes';\nconst app = express();\napp.use(router);\napp.use((err: any, _req: any, res: any, _next: any) => {\n  res.status(err.response?.status ?? 500).json(err.response?.data ?? { error: 'internal' });\n});\nexport default app;\n`;
    const ROUTE = (call: string) =>
      `export async function show(req: any, res: any, next: any) {\n  try {\n    res.json(await ${call});\n  } catch (e) {\n    next(e);\n  }\n}\n`;
    it.each([
      [
        'a route calling a V1 helper of another file, passing its error to next()',
        {
          'api.ts': ESM_API,
          'routes.ts': `import { orderReference } from './api';\n${ROUTE('orderReference(req.params.ref)')}`,
        },
        'api.ts',
      ],
      [
        'an async route (Express 5) calling a V1 helper of another file, with no try',
        {
          'api.ts': ESM_API,
          'routes.ts': `import { Router } from 'express';\nimport { orderReference } from './api';\nexport const router = Router();\nrouter.get('/orders/:ref', async (req: any, res: any) => {\n  res.json({ reference: await orderReference(req.params.ref) });\n});\n`,
        },
        'api.ts',
      ],
      [
        'a route making the V1 call, passing its error to next()',
        {
          'routes.ts': `${ESM_API.slice(0, ESM_API.indexOf('export async function'))}${ROUTE("api.get('/orders?partner_reference=' + req.params.ref)")}`,
        },
        'routes.ts',
      ],
    ])('%s: the call stays on V1, marked', async (_, modules: Record<string, string>, file) => {
      const dir = tempDir();
      for (const [name, text] of Object.entries({ ...modules, 'app.ts': APP }))
        writeFileSync(join(dir, name), text);
      const first = await migrateCode([dir], { mode: 'write', cwd: dir });
      const calls = first.files
        .find((f) => f.path === file)!
        .findings.filter((f) => f.what.startsWith('GET /orders'));
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.kind).toBe('todo');
        expect(call.detail).toMatch(/next\(\)|error middleware/);
      }
      const again = await migrateCode([dir], { mode: 'write', cwd: dir });
      expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
    });
  });

  describe('a catch passing the error to a handler of another file of the run that reads it', () => {
    const ERRORS = `import axios from 'axios';\nexport function handleApiError(err: unknown) {\n  if (axios.isAxiosError(err) && err.response?.status === 404) return null;\n  throw err;\n}\n`;
    const CATCHING = `catch (e) {\n    return handleApiError(e);\n  }`;
    it.each([
      [
        'the V1 call in the catching file',
        {
          'api.ts': `${ESM_API.slice(0, ESM_API.indexOf('export async function'))}import { handleApiError } from './errors';\nexport async function show(ref: string) {\n  try {\n    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n    return data.order_reference;\n  } ${CATCHING}\n}\n`,
        },
      ],
      [
        'the V1 call in a helper of a third file',
        {
          'api.ts': ESM_API,
          'routes.ts': `import { orderReference } from './api';\nimport { handleApiError } from './errors';\nexport async function show(ref: string) {\n  try {\n    return await orderReference(ref);\n  } ${CATCHING}\n}\n`,
        },
      ],
      [
        'a method of an object of the errors file, called on its import',
        {
          'api.ts': `${ESM_API.slice(0, ESM_API.indexOf('export async function'))}import { errors } from './errors';\nexport async function show(ref: string) {\n  try {\n    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n    return data.order_reference;\n  } catch (e) {\n    return errors.handleApiError(e);\n  }\n}\n`,
          'errors.ts': `import axios from 'axios';\nexport const errors = {\n  handleApiError(err: unknown) {\n    if (axios.isAxiosError(err) && err.response?.status === 404) return null;\n    throw err;\n  },\n};\n`,
        },
      ],
    ])('%s: the call stays on V1, marked', async (_, modules: Record<string, string>) => {
      const dir = tempDir();
      for (const [name, text] of Object.entries({ 'errors.ts': ERRORS, ...modules }))
        writeFileSync(join(dir, name), text);
      const first = await migrateCode([dir], { mode: 'write', cwd: dir });
      const call = first.files
        .find((f) => f.path === 'api.ts')!
        .findings.find((f) => f.what.startsWith('GET /orders'));
      expect(call?.kind).toBe('todo');
      expect(call?.detail).toContain('handleApiError');
      const again = await migrateCode([dir], { mode: 'write', cwd: dir });
      expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
    });
  });

  it('a re-export of another function of the module is no reason', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.ts'), `${ESM_API}export const other = async (ref: string) => ref;\n`);
    writeFileSync(join(dir, 'index.ts'), "export { other } from './api';\n");
    writeFileSync(join(dir, 'routes.ts'), `import { other } from './index';\n${tryAround('other(ref)')}`);
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).not.toBe('todo');
  });

  it('a function of the same name from another module, or a file outside the run, is no reason', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.ts'), ESM_API);
    writeFileSync(
      join(dir, 'other.ts'),
      'export async function orderReference(ref: string) {\n  return ref;\n}\n',
    );
    writeFileSync(
      join(dir, 'routes.ts'),
      `import { orderReference } from './other';\n${tryAround('orderReference(ref)')}`,
    );
    const r = await migrateCode([join(dir, 'api.ts'), join(dir, 'routes.ts')], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('rewritten');
    // routes.ts imports api.ts, but only api.ts is in the run: the catch is not seen, as the README says.
    writeFileSync(
      join(dir, 'routes.ts'),
      `import { orderReference } from './api';\n${tryAround('orderReference(ref)')}`,
    );
    const alone = await migrateCode([join(dir, 'api.ts')], { mode: 'dry', cwd: dir });
    expect(alone.files[0]!.findings.find((f) => f.what.startsWith('GET /orders'))?.kind).toBe('rewritten');
  });

  it('a catch that only logs the message is no reason: the call is rewritten, and the caller gets the V2 answer', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.js'), API);
    writeFileSync(
      join(dir, 'routes.js'),
      ROUTES.replace(
        'if (e.response && e.response.status === 404) return null;\n    throw e;',
        'console.error(e.message);\n    return null;',
      ),
    );
    const r = await migrateCode([dir], { mode: 'write', cwd: dir });
    const api = r.files.find((f) => f.path === 'api.js')!;
    expect(api.findings.find((f) => f.what.startsWith('GET /orders'))?.kind).toBe('rewritten');
  });
});

describe('a catch in another file, through a middle file or a class method', () => {
  const ESM_API = API.replace("'use strict';\nconst axios = require('axios');", "import axios from 'axios';")
    .replace('async function orderReference(ref)', 'export async function orderReference(ref: string)')
    .replace('module.exports = { orderReference };\n', '');
  const tryAround = (call: string) =>
    `export async function lookup(ref: string) {\n  try {\n    return await ${call};\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`;
  const CLASS_API = `import axios from 'axios';

export class PrintApi {
  private http = axios.create({
    baseURL: 'https://api.partner-print.example/v1',
    headers: { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY },
  });

  async orderReference(ref: string) {
    const { data } = await this.http.get(\`/orders?partner_reference=\${ref}\`);
    return data.order_reference;
  }
}
`;
  it.each([
    [
      'a.ts calls V1 in fn; b.ts re-wraps fn; c.ts catches b’s wrapper',
      {
        'api.ts': ESM_API,
        'orders.ts': `import { orderReference } from './api';\nexport async function findOrder(ref: string) {\n  const found = await orderReference(ref);\n  return found;\n}\n`,
      },
      `import { findOrder } from './orders';\n${tryAround('findOrder(ref)')}`,
    ],
    [
      'two middle files, the last a default export through require',
      {
        'api.ts': ESM_API,
        'orders.ts': `import { orderReference } from './api';\nexport const findOrder = (ref: string) => orderReference(ref);\n`,
        'service.ts': `import { findOrder } from './orders';\nasync function inner(ref: string) {\n  return findOrder(ref.trim());\n}\nexport default async function (ref: string) {\n  return inner(ref);\n}\n`,
      },
      `const find = require('./service').default;\n${tryAround('find(ref)')}`,
    ],
    [
      'a middle file whose catch rethrows the error',
      {
        'api.ts': ESM_API,
        'orders.ts': `import { orderReference } from './api';\nexport async function findOrder(ref: string) {\n  try {\n    return await orderReference(ref);\n  } catch (err) {\n    console.error('lookup failed', (err as Error).message);\n    throw err;\n  }\n}\n`,
      },
      `import { findOrder } from './orders';\n${tryAround('findOrder(ref)')}`,
    ],
    [
      'a class whose method makes the call, instantiated in the catching file',
      { 'api.ts': CLASS_API },
      `import { PrintApi } from './api';\nconst api = new PrintApi();\n${tryAround('api.orderReference(ref)')}`,
    ],
    [
      'a class instance exported by its module',
      { 'api.ts': `${CLASS_API}export const printApi = new PrintApi();\n` },
      `import { printApi } from './api';\n${tryAround('printApi.orderReference(ref)')}`,
    ],
    [
      'a class instance passed in (not followed: any method of that name)',
      { 'api.ts': CLASS_API },
      `import type { PrintApi } from './api';\nexport async function lookup(api: PrintApi, ref: string) {\n  try {\n    return await api.orderReference(ref);\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`,
    ],
    [
      'a middle file’s class method, called on an object passed in',
      {
        'api.ts': ESM_API,
        'orders.ts': `import { orderReference } from './api';\nexport class Orders {\n  find(ref: string) {\n    return orderReference(ref);\n  }\n}\n`,
      },
      `import type { Orders } from './orders';\nexport async function lookup(orders: Orders, ref: string) {\n  try {\n    return await orders.find(ref);\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`,
    ],
    [
      'a class method re-wrapped in a middle file',
      {
        'api.ts': CLASS_API,
        'orders.ts': `import { PrintApi } from './api';\nconst api = new PrintApi();\nexport function findOrder(ref: string) {\n  return api.orderReference(ref);\n}\n`,
      },
      `import { findOrder } from './orders';\n${tryAround('findOrder(ref)')}`,
    ],
  ])(
    '%s: the call in api.ts stays on V1, marked (one TODO); a second run changes nothing',
    async (_, modules: Record<string, string>, caller) => {
      const dir = tempDir();
      for (const [file, text] of Object.entries(modules)) writeFileSync(join(dir, file), text);
      writeFileSync(join(dir, 'routes.ts'), caller);
      const first = await migrateCode([dir], { mode: 'write', cwd: dir });
      const call = first.files
        .find((f) => f.path === 'api.ts')!
        .findings.find((f) => f.what.startsWith('GET /orders'));
      expect(call?.kind).toBe('todo');
      expect(call?.detail).toContain('in routes.ts');
      expect(call?.detail).toContain('reads `e.response`');
      const api = readFileSync(join(dir, 'api.ts'), 'utf8');
      // The V1 call as it was.
      expect(api).toMatch(/(api|this\.http)\.get\(`\/orders\?partner_reference=\$\{ref\}`\)/);
      expect(todos(api.slice(api.indexOf('orderReference(ref: string)')))).toBe(1);
      const again = await migrateCode([dir], { mode: 'write', cwd: dir });
      expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
    },
  );

  it('a middle file whose catch handles the error itself (no rethrow) is no reason: the call is rewritten', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.ts'), ESM_API);
    writeFileSync(
      join(dir, 'orders.ts'),
      `import { orderReference } from './api';\nexport async function findOrder(ref: string) {\n  try {\n    return await orderReference(ref);\n  } catch {\n    return null;\n  }\n}\n`,
    );
    writeFileSync(
      join(dir, 'routes.ts'),
      `import { findOrder } from './orders';\n${tryAround('findOrder(ref)')}`,
    );
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('rewritten');
  });
});

describe('an axios instance (or axios itself) set up in another file of the run', () => {
  const API_TS = `import axios from 'axios';

export const api = axios.create({
  baseURL: 'https://api.partner-print.example/v1',
  headers: { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY ?? '' },
});

export async function getOrder(ref: string) {
  const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);
  return data.order_reference;
}
`;
  it.each([
    [
      'an interceptor that turns the V1 error into the partner’s own',
      `import { api } from './api';\nexport class ApiError extends Error {\n  constructor(public status: number) {\n    super(\`Partner Print answered \${status}\`);\n  }\n}\napi.interceptors.response.use(undefined, (err) => Promise.reject(new ApiError(err.response?.status ?? 0)));\n`,
    ],
    ['a default set on the instance', `import { api } from './api';\napi.defaults.timeout = 5000;\n`],
    [
      'through a namespace import',
      `import * as http from './api';\nhttp.api.interceptors.request.use((c) => c);\n`,
    ],
  ])('%s: the call through it stays on V1, marked', async (_, setup) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.ts'), API_TS);
    writeFileSync(join(dir, 'setup.ts'), setup);
    const first = await migrateCode([dir], { mode: 'write', cwd: dir });
    const call = first.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('setup.ts');
    const again = await migrateCode([dir], { mode: 'write', cwd: dir });
    expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
  });

  it('axios itself set up in another file: its own calls there stay on V1, marked', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'api.ts'),
      `import axios from 'axios';\nconst HEADERS = { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY ?? '' };\nexport async function getOrder(ref: string) {\n  const { data } = await axios.get(\`https://api.partner-print.example/v1/orders?partner_reference=\${ref}\`, { headers: HEADERS });\n  return data.order_reference;\n}\n`,
    );
    writeFileSync(
      join(dir, 'main.ts'),
      `import axios from 'axios';\naxios.interceptors.response.use((r) => r, (e) => Promise.reject(new Error(\`HTTP \${e.response?.status}\`)));\n`,
    );
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('main.ts');
  });

  it('an instance of its own in the other file is no reason', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.ts'), API_TS);
    writeFileSync(
      join(dir, 'other.ts'),
      `import axios from 'axios';\nimport { getOrder } from './api';\nconst mine = axios.create({ baseURL: 'https://example.org' });\nmine.interceptors.response.use((r) => r);\nexport const find = getOrder;\n`,
    );
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('rewritten');
  });
});

describe('a helper of another file that calls the function it is given inside a try reading the V1 error', () => {
  const RETRY = `export async function withRetry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {\n  for (let i = 1; ; i++) {\n    try {\n      return await fn();\n    } catch (e: any) {\n      if (i < attempts && (e.response?.status ?? 0) >= 500) continue;\n      throw e;\n    }\n  }\n}\n`;
  const API = `import axios from 'axios';\nimport { withRetry } from './retry';\nconst api = axios.create({\n  baseURL: 'https://api.partner-print.example/v1',\n  headers: { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY },\n});\nexport async function orderReference(ref: string) {\n  return withRetry(async () => {\n    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n    return data.order_reference;\n  });\n}\n`;
  it('a callback passed to it (a retry helper in utils): the call stays on V1, marked', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'retry.ts'), RETRY);
    writeFileSync(join(dir, 'api.ts'), API);
    const first = await migrateCode([dir], { mode: 'write', cwd: dir });
    const call = first.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('retry.ts');
    expect(call?.detail).toContain('reads `e.response`');
    const again = await migrateCode([dir], { mode: 'write', cwd: dir });
    expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
  });

  it('a helper whose catch reads only the message is no reason', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'retry.ts'),
      RETRY.replace(
        'if (i < attempts && (e.response?.status ?? 0) >= 500) continue;',
        'if (i < attempts) { console.warn(e.message); continue; }',
      ),
    );
    writeFileSync(join(dir, 'api.ts'), API);
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('rewritten');
  });
});

describe('a catch in another file, through CommonJS re-exports and dynamic imports', () => {
  const tryAround = (call: string) =>
    `async function lookup(ref) {\n  try {\n    return await ${call};\n  } catch (e) {\n    if (e.response && e.response.status === 404) return null;\n    throw e;\n  }\n}\nmodule.exports = { lookup };\n`;
  it.each([
    [
      'module.exports = require(…) in an index',
      { 'index.js': "module.exports = require('./api');\n" },
      `const { orderReference } = require('./index');\n${tryAround('orderReference(ref)')}`,
    ],
    [
      'a dynamic import, destructured',
      {},
      `async function lookup(ref) {\n  const { orderReference } = await import('./api.js');\n  try {\n    return await orderReference(ref);\n  } catch (e) {\n    if (e.response && e.response.status === 404) return null;\n    throw e;\n  }\n}\nmodule.exports = { lookup };\n`,
    ],
  ])('%s: the call in api.js stays on V1, marked', async (_, modules: Record<string, string>, caller) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api.js'), API);
    for (const [file, text] of Object.entries(modules)) writeFileSync(join(dir, file), text);
    writeFileSync(join(dir, 'routes.js'), caller);
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.js')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('in routes.js');
  });
});

describe('an await-to-js helper of another file of the run, the error it returns read for a V1 field', () => {
  const TO = {
    'try/catch, returning [err, null]': `export async function to<T>(p: Promise<T>): Promise<[unknown, T | null]> {\n  try {\n    return [null, await p];\n  } catch (e) {\n    return [e, null];\n  }\n}\n`,
    'await-to-js itself (then/catch)': `export function to<T>(promise: Promise<T>) {\n  return promise.then((data) => [null, data] as const).catch((err) => [err, undefined] as const);\n}\nexport default to;\n`,
  };
  const READER = (from: string, call: string) =>
    `${from}export async function lookup(ref: string) {\n  const [err, reference] = await to(${call});\n  if ((err as any)?.response?.status === 404) return null;\n  return reference;\n}\n`;
  const ESM_API = API.replace("'use strict';\nconst axios = require('axios');", "import axios from 'axios';")
    .replace('async function orderReference(ref)', 'export async function orderReference(ref: string)')
    .replace('module.exports = { orderReference };\n', 'export default orderReference;\n');
  const API_HEAD = ESM_API.slice(0, ESM_API.indexOf('export async function'));
  const V1_GET = "api.get('/orders?partner_reference=' + ref).then((r) => r.data.order_reference)";
  it.each(Object.entries(TO))(
    '%s: the V1 call in the file calling the helper, and in a third file, stays on V1, marked; a second run changes nothing',
    async (_, helper) => {
      for (const [modules, file] of [
        [
          {
            'routes.ts': READER(`${API_HEAD}import { to } from './to';\n`, V1_GET),
          },
          'routes.ts',
        ],
        [
          {
            'api.ts': ESM_API,
            'routes.ts': READER(
              "import { orderReference } from './api';\nimport to from './to';\n",
              'orderReference(ref)',
            ),
          },
          'api.ts',
        ],
      ] as const) {
        const dir = tempDir();
        for (const [name, text] of Object.entries({ ...modules, 'to.ts': helper }))
          writeFileSync(join(dir, name), text);
        const first = await migrateCode([dir], { mode: 'write', cwd: dir });
        const call = first.files
          .find((f) => f.path === file)!
          .findings.find((f) => f.what.startsWith('GET /orders'));
        expect(call?.kind, file).toBe('todo');
        expect(call?.detail).toContain('passed to `to` (of to.ts), which returns the error as a value');
        const again = await migrateCode([dir], { mode: 'write', cwd: dir });
        expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
      }
    },
  );

  it('the helper imported under another name (renamed, or as a default): the call stays on V1, marked', async () => {
    for (const [helper, imported] of [
      [TO['try/catch, returning [err, null]'], "import { to as attempt } from './to';\n"],
      [TO['await-to-js itself (then/catch)'], "import attempt from './to';\n"],
    ] as const) {
      const dir = tempDir();
      writeFileSync(join(dir, 'to.ts'), helper);
      writeFileSync(join(dir, 'api.ts'), ESM_API);
      writeFileSync(
        join(dir, 'routes.ts'),
        READER(`import { orderReference } from './api';\n${imported}`, 'orderReference(ref)').replace(
          'await to(',
          'await attempt(',
        ),
      );
      const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
      const call = r.files
        .find((f) => f.path === 'api.ts')!
        .findings.find((f) => f.what.startsWith('GET /orders'));
      expect(call?.kind, imported).toBe('todo');
      expect(call?.detail).toContain('passed to `attempt` (of to.ts), which returns the error as a value');
    }
  });

  it('the await-to-js package: the call stays on V1, marked', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'routes.ts'), READER(`${API_HEAD}import to from 'await-to-js';\n`, V1_GET));
    const first = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = first.files[0]!.findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('passed to `to` (await-to-js), which returns the error as a value');
  });

  it.each([
    ['its name', 'orNull', 'orNull'],
    ['another name', 'orNull as safe', 'safe'],
  ])(
    'a helper of another file catching the promise it is given and reading the error, imported under %s: the call stays on V1, marked',
    async (_, imported, local) => {
      const dir = tempDir();
      writeFileSync(
        join(dir, 'safe.ts'),
        'export async function orNull<T>(p: Promise<T>) {\n  try {\n    return await p;\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n',
      );
      writeFileSync(join(dir, 'api.ts'), ESM_API);
      writeFileSync(
        join(dir, 'routes.ts'),
        `import { orderReference } from './api';\nimport { ${imported} } from './safe';\nexport const lookup = (ref: string) => ${local}(orderReference(ref));\n`,
      );
      const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
      const call = r.files
        .find((f) => f.path === 'api.ts')!
        .findings.find((f) => f.what.startsWith('GET /orders'));
      expect(call?.kind).toBe('todo');
      expect(call?.detail).toContain(
        `passed to \`${local}\`, which inside a try whose catch reads \`e.response\``,
      );
    },
  );

  it('a file calling the helper that reads no V1 error field is no reason', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'to.ts'), TO['try/catch, returning [err, null]']);
    writeFileSync(join(dir, 'api.ts'), ESM_API);
    writeFileSync(
      join(dir, 'routes.ts'),
      "import { orderReference } from './api';\nimport { to } from './to';\nexport async function lookup(ref: string) {\n  const [err, reference] = await to(orderReference(ref));\n  if (err) console.error((err as Error).message);\n  return reference;\n}\n",
    );
    const r = await migrateCode([dir], { mode: 'dry', cwd: dir });
    const call = r.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('rewritten');
  });
});

describe('an error reaching a listener of another file of the run that reads a V1 field', () => {
  const ESM_API = API.replace("'use strict';\nconst axios = require('axios');", "import axios from 'axios';")
    .replace('async function orderReference(ref)', 'export async function orderReference(ref: string)')
    .replace('module.exports = { orderReference };\n', 'export default orderReference;\n');
  it.each([
    [
      "emitted as 'error' from a catch in the calling file, the listener in a third file",
      {
        'api.ts': ESM_API,
        'events.ts': "import { EventEmitter } from 'node:events';\nexport const bus = new EventEmitter();\n",
        'routes.ts':
          "import { orderReference } from './api';\nimport { bus } from './events';\nexport async function lookup(ref: string) {\n  try {\n    return await orderReference(ref);\n  } catch (e) {\n    bus.emit('error', e);\n    return null;\n  }\n}\n",
        'monitor.ts':
          "import { bus } from './events';\nbus.on('error', (err: any) => {\n  if (err.response?.status >= 500) console.error('V1 down');\n});\n",
      },
      "emits it as 'error' to a listener that reads `err.response` (in monitor.ts)",
    ],
    [
      "not handled, a process-level 'unhandledRejection' handler in the entry file",
      {
        'api.ts': ESM_API,
        'index.ts':
          "import { orderReference } from './api';\nprocess.on('unhandledRejection', (reason: any) => {\n  console.error('V1 answered', reason?.response?.status);\n});\nvoid orderReference(process.argv[2] ?? '');\n",
      },
      "a process-level 'unhandledRejection' handler that reads `reason.response` (in index.ts)",
    ],
  ])('%s: the call stays on V1, marked; a second run changes nothing', async (_, modules, detail) => {
    const dir = tempDir();
    for (const [name, text] of Object.entries(modules)) writeFileSync(join(dir, name), text);
    const first = await migrateCode([dir], { mode: 'write', cwd: dir });
    const call = first.files
      .find((f) => f.path === 'api.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain(detail);
    const again = await migrateCode([dir], { mode: 'write', cwd: dir });
    expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
  });
});

describe('a promise kept in a holder another file of the run catches an entry of', () => {
  it('an exported Map of pending look-ups, an entry .catch-ed in another file reading err.response: marked', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'cache.ts'),
      "import axios from 'axios';\nconst api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY } });\nexport const inFlight = new Map<string, Promise<string>>();\nexport function start(ref: string) {\n  inFlight.set(ref, api.get('/orders?partner_reference=' + ref).then((r) => r.data.order_reference));\n}\n",
    );
    writeFileSync(
      join(dir, 'routes.ts'),
      "import { inFlight } from './cache';\nexport const result = (ref: string) => inFlight.get(ref)?.catch((e) => (e.response?.status === 404 ? null : Promise.reject(e)));\n",
    );
    const first = await migrateCode([dir], { mode: 'write', cwd: dir });
    const call = first.files
      .find((f) => f.path === 'cache.ts')!
      .findings.find((f) => f.what.startsWith('GET /orders'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('kept in `inFlight`');
    expect(call?.detail).toContain('in routes.ts');
    const again = await migrateCode([dir], { mode: 'write', cwd: dir });
    expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
  });
});

describe('a callback of another file of the run reading the V1 error', () => {
  const API_CB = `'use strict';\nconst axios = require('axios');\nconst api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'ACME1', 'X-API-Key': process.env.PP_API_KEY } });\n`;
  it.each([
    ['.catch(cb)', 'get(ref).then((r) => cb(null, r)).catch(cb);'],
    ['.catch((err) => cb(err))', 'get(ref).then((r) => cb(null, r)).catch((err) => cb(err));'],
    ['.then(onOk, cb)', 'get(ref).then((r) => cb(null, r), cb);'],
  ])(
    'a Node-style function handing the error to its callback with %s, called from another file whose callback reads err.response: marked',
    async (_, body) => {
      const dir = tempDir();
      writeFileSync(
        join(dir, 'api.js'),
        `${API_CB}async function get(ref) {\n  const { data } = await api.get('/orders?partner_reference=' + ref);\n  return data.order_reference;\n}\nfunction orderReference(ref, cb) {\n  ${body}\n}\nmodule.exports = { orderReference };\n`,
      );
      writeFileSync(
        join(dir, 'routes.js'),
        "'use strict';\nconst api = require('./api');\nfunction lookup(ref, done) {\n  api.orderReference(ref, (err, reference) => {\n    if (err && err.response && err.response.status === 404) return done(null, null);\n    done(err, reference);\n  });\n}\nmodule.exports = { lookup };\n",
      );
      const first = await migrateCode([dir], { mode: 'write', cwd: dir });
      const call = first.files
        .find((f) => f.path === 'api.js')!
        .findings.find((f) => f.what.startsWith('GET /orders'));
      expect(call?.kind).toBe('todo');
      expect(call?.detail).toContain('the callback given to `orderReference` in routes.js');
      const again = await migrateCode([dir], { mode: 'write', cwd: dir });
      expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
    },
  );
});

describe('the look-out reads each file of the run once', () => {
  const ESM_API = API.replace("'use strict';\nconst axios = require('axios');", "import axios from 'axios';")
    .replace('async function orderReference(ref)', 'export async function orderReference(ref: string)')
    .replace('module.exports = { orderReference };\n', 'export default orderReference;\n');
  it('a method caught on an object not followed, a middle file defining it, the module it calls: one read each', async () => {
    const dir = tempDir();
    const files = {
      'api.ts': ESM_API,
      'middle.ts':
        "import { orderReference } from './api';\nexport class Orders {\n  find(ref: string) {\n    return orderReference(ref);\n  }\n}\n",
      'routes.ts':
        'export async function lookup(orders: { find(r: string): Promise<string> }, ref: string) {\n  try {\n    return await orders.find(ref);\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n',
      'util.ts': "import { Orders } from './middle';\nexport const make = () => new Orders();\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const reads: string[] = [];
    const real = Object.keys(files).map((f) => join(realpathSync(dir), f));
    const caught = await catchesElsewhere(
      real,
      (r) => r,
      async (path) => {
        reads.push(path);
        return { text: readFileSync(path, 'utf8') };
      },
    );
    expect(caught.get(real[0]!)?.get('orderReference')).toContain('reads `e.response`');
    expect(reads.sort()).toEqual([...real].sort());
  });
});
