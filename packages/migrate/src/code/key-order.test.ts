import { describe, expect, it } from 'vitest';
import { rewriteTwice, todos } from '../../test/rewrite.ts';
import { TODO_TAG } from './todo.ts';
import type { CodeOptions } from './transform.ts';

const V1 = 'https://api.partner-print.example/v1';
const getOrder = `async function getOrder(ref) {\n  const res = await fetch('${V1}/orders?partner_reference=' + ref, { headers: { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY } });\n  return (await res.json()).reference;\n}\n`;

/** The first run's output; a second run must change nothing and add no TODO. */
const rewrite = (text: string, file = 'a.js', options: CodeOptions = {}) => rewriteTwice(text, file, options);
const lineOf = (output: string, part: string) => output.split('\n').findIndex((l) => l.includes(part));

describe('the V2 client reads its secret key after what loads it', () => {
  it.each([
    [
      'CommonJS, dotenv after the requires',
      `'use strict';\nconst fetch = require('node-fetch');\nrequire('dotenv').config();\n`,
      "require('dotenv').config();",
      'a.js',
    ],
    [
      'ESM, dotenv.config() after the imports',
      `import dotenv from 'dotenv';\nimport fetch from 'node-fetch';\n\ndotenv.config({ path: '.env.local' });\n`,
      'dotenv.config(',
      'a.mjs',
    ],
    [
      'dotenv in development only',
      `const fetch = require('node-fetch');\nif (process.env.NODE_ENV !== 'production') {\n  require('dotenv').config();\n}\n`,
      "require('dotenv').config();",
      'a.js',
    ],
    [
      'dotenvx',
      `const fetch = require('node-fetch');\nrequire('@dotenvx/dotenvx').config();\n`,
      "require('@dotenvx/dotenvx').config();",
      'a.js',
    ],
    [
      "Node's own .env loader",
      `import fetch from 'node-fetch';\nprocess.loadEnvFile();\n`,
      'process.loadEnvFile();',
      'a.mjs',
    ],
    [
      'an assignment to process.env',
      `import fetch from 'node-fetch';\nprocess.env.PARTNER_PRINT_SECRET_KEY ??= readFileSync('/run/secrets/pp', 'utf8');\n`,
      'process.env.PARTNER_PRINT_SECRET_KEY ??=',
      'a.mjs',
    ],
  ])('%s: the client is created after it (a literal base URL)', (_, head, loader, file) => {
    const r = rewrite(`${head}\n${getOrder}\nmodule.exports = { getOrder };\n`, file);
    const client = lineOf(r.output, 'createClient({');
    expect(client).toBeGreaterThan(0);
    expect(client).toBeGreaterThan(lineOf(r.output, loader));
    expect(lineOf(r.output, 'createV1Adapter(partnerPrint')).toBeGreaterThan(client);
    expect(r.findings.filter((f) => f.kind === 'rewritten').length).toBe(1);
  });

  it('the credentials the V1 code read when the module loaded: the client is created where they were read', () => {
    const r = rewrite(
      `import fetch from 'node-fetch';\nimport { loadEnv } from './env.js';\n\nloadEnv();\nconst HEADERS = { 'X-Partner-Code': 'ACME1', 'X-Api-Key': process.env.PP_API_KEY };\n\nexport async function getOrder(ref) {\n  const res = await fetch('${V1}/orders?partner_reference=' + ref, { headers: HEADERS });\n  return (await res.json()).reference;\n}\n`,
      'a.mjs',
    );
    expect(lineOf(r.output, 'createClient({')).toBeGreaterThan(lineOf(r.output, 'loadEnv();'));
    expect(r.output).not.toContain('HEADERS');
  });

  it('--key-expression naming a constant of the file: the client is created after it is declared', () => {
    const r = rewrite(
      `import fetch from 'node-fetch';\nimport { loadConfig } from './config.js';\n\nconst config = loadConfig();\n\nexport ${getOrder}`,
      'a.mjs',
      { keyExpression: 'config.partnerPrintKey' },
    );
    const client = lineOf(r.output, 'createClient({ secretKey: config.partnerPrintKey');
    expect(client).toBeGreaterThan(lineOf(r.output, 'const config = loadConfig();'));
  });

  it.each([
    [
      'a Workers handler',
      `export default {\n  async fetch(request, env) {\n    const res = await fetch('${V1}/orders?partner_reference=' + new URL(request.url).searchParams.get('ref'), { headers: { 'X-Partner-Code': env.PP_PARTNER_CODE, 'X-Api-Key': env.PP_API_KEY } });\n    return Response.json((await res.json()).reference);\n  },\n};\n`,
      '`env.PP_API_KEY`',
    ],
    [
      'a client class given its key',
      `import axios from 'axios';\nexport class Shop {\n  constructor(code, apiKey) {\n    this.http = axios.create({ baseURL: '${V1}', headers: { 'X-Partner-Code': code, 'X-Api-Key': apiKey } });\n  }\n  async get(ref) {\n    const { data } = await this.http.get(\`/orders?partner_reference=\${ref}\`);\n    return data.reference;\n  }\n}\n`,
      '`apiKey`',
    ],
  ])(
    'V1 credentials passed in at run time (%s): the client that reads one key when the module loads is marked',
    (_, text, from) => {
      const r = rewrite(text, 'a.mjs');
      const lines = r.output.split('\n');
      const client = lines.findIndex((l) => l.includes('createClient({'));
      expect(lines[client - 1]).toContain(TODO_TAG);
      expect(lines[client - 1]).toContain(from);
      expect(lines[client - 1]).toContain('process.env.PARTNER_PRINT_SECRET_KEY');
      expect(todos(r.output)).toBe(1);
      const finding = r.findings.find((f) => f.what === 'V1 credentials passed in at run time');
      expect(finding?.kind).toBe('todo');
      expect(r.findings.filter((f) => f.kind === 'rewritten').length).toBe(1);
    },
  );

  it('V1 credentials read from the environment: no such mark', () => {
    const r = rewrite(`import fetch from 'node-fetch';\n${getOrder}`, 'a.mjs');
    expect(todos(r.output)).toBe(0);
  });

  it('--key-expression naming what the file binds only inside functions (a Workers `env`): the calls are marked', () => {
    const r = rewrite(
      `export default {\n  async fetch(request, env) {\n    const res = await fetch('${V1}/orders?partner_reference=' + new URL(request.url).searchParams.get('ref'), { headers: { 'X-Partner-Code': env.PP_PARTNER_CODE, 'X-Api-Key': env.PP_API_KEY } });\n    return Response.json((await res.json()).reference);\n  },\n};\n`,
      'a.mjs',
      { keyExpression: 'env.PARTNER_PRINT_SECRET_KEY' },
    );
    expect(r.output).not.toContain('createClient');
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
    const call = r.findings.find((f) => f.what.startsWith('GET'));
    expect(call?.detail).toContain('--key-expression');
    expect(call?.detail).toContain('`env`');
    expect(call?.detail).toMatch(/^V1 call left as it is: /);
  });
});
