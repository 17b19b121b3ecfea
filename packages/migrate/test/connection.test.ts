import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSandbox, run, tempDir } from './helpers.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server on 127.0.0.1 that stops with the test. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  server.unref();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}

const lookupsOf = (requests: Request[]) =>
  requests.filter((q) => new URL(q.url).pathname.endsWith('/utilities/lookup-product-by-legacy-sku'));

function skuFile(dir: string, lines: string[]): string {
  const file = join(dir, 'skus.csv');
  writeFileSync(file, `sku\n${lines.join('\n')}\n`);
  return file;
}

describe('the key and base URL are checked before the first line', () => {
  it('a refused key: exit 2 after one request, nothing written (skus and orders)', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const csv = skuFile(dir, ['A', 'B', 'C', 'D', 'E']);
    const orders = join(dir, 'orders.jsonl');
    writeFileSync(
      orders,
      '{"store_reference":"Store_x","shipping_kind":"combined","orderlines":[{"sku":"A","quantity":1}]}\n',
    );
    const env = { PARTNER_PRINT_SECRET_KEY: 'sk_test_wrong_key' };
    for (const argv of [
      ['skus', csv],
      ['orders', orders, '--submit'],
      ['orders', orders],
    ]) {
      const before = readdirSync(dir).sort();
      const r = await run([...argv, '--base-url', sb.baseUrl], { env, intercept: (req) => sb.fetch(req) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/The API refused the secret key \(401\)/);
      expect(r.requests).toHaveLength(1);
      expect(readdirSync(dir).sort()).toEqual(before);
    }
  });

  it('a wrong base URL or an unreachable API: exit 2 naming --base-url, nothing written', async () => {
    const dir = tempDir();
    const csv = skuFile(dir, ['A']);
    const notApi = await serve((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>nope</h1>'),
    );
    const env = { PARTNER_PRINT_SECRET_KEY: 'sk_test_fine' };
    const wrong = await run(['skus', csv, '--base-url', notApi], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--base-url/);
    const down = await run(['skus', csv, '--base-url', 'http://127.0.0.1:9/v2'], { env });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot be reached.*--base-url/);
    expect(readdirSync(dir)).toEqual(['skus.csv']);
  });

  it('refuses a key that is not a header value, and a base URL that is not a URL, without echoing either', async () => {
    const dir = tempDir();
    const csv = skuFile(dir, ['A']);
    for (const key of ['sk_test_SECRET123\r\nX-Evil: 1', 'sk_test_SECRET123\u0000', ' sk_test_SECRET123']) {
      const r = await run(['skus', csv, '--base-url', 'https://api.example.com/v2'], {
        env: { PARTNER_PRINT_SECRET_KEY: key },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/secret key .*\(\d+ characters\) has/);
      expect(r.stderr + r.stdout).not.toContain('SECRET123');
      expect(r.requests).toHaveLength(0);
    }
    const asUrl = await run(['skus', csv], {
      env: { PARTNER_PRINT_SECRET_KEY: 'sk_test_SECRET123', PARTNER_PRINT_BASE_URL: 'sk_test_SECRET123' },
    });
    expect(asUrl.code).toBe(2);
    expect(asUrl.stderr).toMatch(/base URL \(17 characters\) is not an http\(s\) URL/);
    expect(asUrl.stderr + asUrl.stdout).not.toContain('SECRET123');
  });

  it('--timeout bounds every request: a server that never answers stops the command in seconds', async () => {
    const dir = tempDir();
    const csv = skuFile(dir, ['A']);
    const silent = await serve(() => {
      // Accept the request and never answer.
    });
    const started = Date.now();
    const r = await run(['skus', csv, '--base-url', silent, '--timeout', '200'], {
      env: { PARTNER_PRINT_SECRET_KEY: 'sk_test_fine' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did not answer in time.*--timeout/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(readdirSync(dir)).toEqual(['skus.csv']);
  });
});

describe('progress is never saved past a line that failed for every line', () => {
  const answer = (req: Request) => {
    const sku = new URL(req.url).searchParams.get('legacyItemSku');
    return sku
      ? Response.json({ productReference: `Product_${sku.replace('-', '').padEnd(26, 'x')}` })
      : undefined;
  };

  for (const [what, failure] of [
    [
      'the key is revoked',
      () => Response.json({ code: 'unauthorized', message: 'Invalid key' }, { status: 401 }),
    ],
    [
      'the network goes down',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
  ] as const) {
    it(`${what} mid-run: the run stops, no error rows, and the rerun resolves every line`, async () => {
      const sb = newSandbox();
      const dir = tempDir();
      const skus = Array.from({ length: 60 }, (_, i) => `SKU-${i}`);
      const file = skuFile(dir, skus);
      let n = 0;
      const first = await run(['skus', file, '--sandbox', '--no-sharing', '--concurrency', '2'], {
        sandbox: sb,
        intercept: (req) => (lookupsOf([req]).length && ++n > 20 ? failure() : answer(req)),
      });
      expect(first.code).not.toBe(0);
      expect(first.stderr).toMatch(
        /Stopped at line \d+: .*\nNothing from line \d+ on was recorded; rerun the same command/,
      );
      const stoppedAt = Number(/Stopped at line (\d+)/.exec(first.stderr)?.[1]);
      const out = join(dir, 'skus.products.jsonl');
      const written = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(written.every((o) => o.status === 'resolved')).toBe(true);
      const state = JSON.parse(readFileSync(`${out}.state.json`, 'utf8'));
      expect(state.done).toBe(false);
      expect(state.line).toBeLessThan(stoppedAt);
      expect(state.counts.error).toBeUndefined();

      const second = await run(['skus', file, '--sandbox', '--no-sharing'], {
        sandbox: sb,
        intercept: answer,
      });
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/^Resumed after line \d+/);
      const all = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(all.map((o) => o.sku)).toEqual(skus);
      expect(all.every((o) => o.status === 'resolved')).toBe(true);
    });
  }
});

describe('skus output', () => {
  it('groups a repeated warning into one line with a count and line ranges', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const lines = Array.from({ length: 20 }, (_, i) =>
      i < 3 || (i > 6 && i < 18) || i === 19 ? 'ABC123P001' : sb.seed.legacySkus.poster,
    );
    const file = skuFile(dir, lines);
    const r = await run(['skus', file, '--sandbox'], { sandbox: sb });
    expect(r.code).toBe(1);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('ABC123P001'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^lines 2–4, 9–19, 21 \(15 lines\): ABC123P001: unknown — /);
  });

  it('CSV output keeps the input CSV’s other columns (renamed on a clash with ours)', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'skus.csv');
    writeFileSync(file, `shop,sku,note,qty\nA,${sb.seed.legacySkus.poster},"first, really",3\nB,NOPE-1,,7\n`);
    const out = join(dir, 'out.csv');
    const r = await run(['skus', file, '--sandbox', '-o', out], { sandbox: sb });
    expect(r.code).toBe(1);
    const rows = readFileSync(out, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('line,sku,status,product_reference,shared_item,note,shop,input_note,qty');
    expect(rows[1]).toMatch(
      new RegExp(
        `^2,${sb.seed.legacySkus.poster},resolved,${sb.seed.products.poster},.*,A,"first, really",3$`,
      ),
    );
    expect(rows[2]).toMatch(/^3,NOPE-1,unknown,,,.*,B,,7$/);
    expect(existsSync(`${out}.state.json`)).toBe(true);
  });
});

describe('--verbose', () => {
  it('logs each request on stderr through the client logger, and nothing without it', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = skuFile(dir, [sb.seed.legacySkus.poster, 'NOPE-1']);
    const verbose = await run(['skus', file, '--sandbox', '--no-sharing', '--verbose'], { sandbox: sb });
    const logged = verbose.stderr.split('\n').filter((l) => l.startsWith('['));
    expect(
      logged.some((l) =>
        /^\[debug\] .*lookupProductByLegacySku|^\[debug\] .*lookup-product-by-legacy-sku/.test(l),
      ),
    ).toBe(true);
    expect(logged.some((l) => /status=404/.test(l))).toBe(true);
    expect(verbose.stderr).not.toContain(sb.keys.primary);
    const quiet = await run(['skus', file, '--sandbox', '--no-sharing', '--restart'], { sandbox: sb });
    expect(quiet.stderr.split('\n').filter((l) => l.startsWith('['))).toEqual([]);
  });
});
