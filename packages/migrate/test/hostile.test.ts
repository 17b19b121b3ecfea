import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_B64, run, tempDir } from './helpers.ts';

/**
 * Issue 19: a server that echoes the secret key in every header and body field, plainly and behind JSON
 * `\u` escapes. Whatever it answers, the key reaches neither stdout, stderr nor any file the CLI writes.
 */
type Mode = 'ok' | 'refuse' | 'invalid' | 'unknown' | 'escaped';

let server: Server;
let baseUrl: string;
const state: { key: string; mode: Mode } = { key: '', mode: 'ok' };

const unicodeEscape = (s: string) =>
  [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

function echoBody(path: string, key: string): Record<string, unknown> {
  if (path.endsWith('/products')) {
    return {
      products: [{ reference: `Product_${key}`, legacyItemSKU: key, print: true, note: key }],
      nextCursor: null,
    };
  }
  if (path.endsWith('/items'))
    return {
      items: [{ reference: `Item_${key}`, sku: key, products: [{ reference: key }] }],
      nextCursor: null,
    };
  if (path.endsWith('/lookup-product-by-legacy-sku'))
    return { productReference: `Product_${key}`, echo: key };
  if (path.endsWith('/lookup-order-reference-by-custom-identifier'))
    return { orderReference: `Order_${key}` };
  if (path.endsWith('/images')) return { image: { reference: `Image_${key}` } };
  if (path.endsWith('/orders')) return { order: { reference: `Order_${key}`, echo: key } };
  return { echo: key };
}

function statusFor(mode: Mode, path: string): number {
  if (mode === 'refuse') return 401;
  const lookup = path.includes('/utilities/');
  if (mode === 'invalid' && lookup) return 400;
  if (mode === 'unknown' && lookup) return 404;
  return 200;
}

function hostile(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  const { key, mode } = state;
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const status = statusFor(mode, path);
  const body =
    status === 200 ? echoBody(path, key) : { code: key, message: `Key ${key} refused`, requestId: key };
  let text = JSON.stringify(body);
  if (mode === 'escaped') text = text.replaceAll(JSON.stringify(key).slice(1, -1), unicodeEscape(key));
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': key,
    'x-echo': `key=${key}`,
    'x-ratelimit-policy': `"default";q=3000;w=60;k="${key.replaceAll('"', '')}"`,
    'x-ratelimit': `"default";r=2999;t=0`,
    ...(status === 401 ? { 'www-authenticate': `Key realm="${key.replaceAll('"', '')}"` } : {}),
  });
  res.end(text);
}

beforeAll(async () => {
  server = createServer(hostile);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => new Promise((r) => server.close(r)));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A visible-ASCII key (any header-valid character, quotes and backslashes included). */
const keys = fc
  .array(fc.integer({ min: 0x21, max: 0x7e }), { minLength: 12, maxLength: 40 })
  .map((codes) => `sk_test_${String.fromCharCode(...codes)}`);

describe('the secret key never leaves the CLI, whatever the server echoes', () => {
  it('stdout, stderr and every written file are free of the key (random keys, hostile answers)', async () => {
    await fc.assert(
      fc.asyncProperty(
        keys,
        fc.constantFrom<Mode>('ok', 'refuse', 'invalid', 'unknown', 'escaped'),
        async (key, mode) => {
          Object.assign(state, { key, mode });
          const dir = tempDir();
          const skus = join(dir, 'skus.csv');
          writeFileSync(skus, 'sku,shop\nCASE-1,A\nCASE-2,B\n');
          const orders = join(dir, 'orders.jsonl');
          const order = {
            store_reference: 'Store_abcdefghijklmnopqrstuvwxyz',
            shipping_kind: 'combined',
            partner_reference: 'WEB-1',
            orderlines: [{ sku: 'CASE-1', image: PNG_B64, quantity: 1 }],
          };
          writeFileSync(orders, `${JSON.stringify(order)}\n`);
          const env = { PARTNER_PRINT_SECRET_KEY: key };
          const runs = [
            await run(
              [
                'skus',
                skus,
                '--base-url',
                baseUrl,
                '-o',
                join(dir, 'out.csv'),
                '--cache',
                join(dir, 'c.jsonl'),
              ],
              { env },
            ),
            await run(['skus', skus, '--base-url', baseUrl, '--json', '--restart'], { env }),
            await run(['orders', orders, '--base-url', baseUrl, '--verbose'], { env }),
            await run(['orders', orders, '--base-url', baseUrl, '--submit', '--json', '--secret-key', key], {
              env: {},
            }),
          ];
          for (const r of runs) {
            expect(r.stdout + r.stderr).not.toContain(key);
            expect(r.stdout + r.stderr).not.toBe('');
          }
          for (const file of filesUnder(dir)) expect(readFileSync(file, 'utf8')).not.toContain(key);
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
