import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSandbox, run, tempDir } from './helpers.ts';

describe('CLI errors and exit codes', () => {
  it('--help everywhere exits 0', async () => {
    for (const argv of [['--help'], ['skus', '--help'], ['orders', '--help'], ['audit', '--help']]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Usage: partner-print-migrate/);
    }
    expect((await run(['--help'])).stdout).toMatch(/Exit codes: 0 ok, 1 some lines failed, 2 usage error/);
  });

  it('usage errors exit 2 with a clear message', async () => {
    const dir = tempDir();
    const csv = join(dir, 'skus.csv');
    writeFileSync(csv, 'sku\nA\n');
    const weird = join(dir, 'skus.xlsx');
    writeFileSync(weird, 'x');
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [[], /Usage: partner-print-migrate/],
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['skus'], /missing required argument 'file'/],
      [['skus', join(dir, 'missing.csv'), '--sandbox'], /File not found or not readable: .*missing\.csv/],
      [['orders', join(dir, 'missing.jsonl'), '--sandbox'], /File not found or not readable/],
      [['skus', dir, '--sandbox', '--format', 'csv'], /Not a file/],
      [['skus', weird, '--sandbox'], /Cannot tell the format .* pass --format csv or --format jsonl/],
      [['skus', csv, '--sandbox', '--format', 'xml'], /--format must be csv or jsonl/],
      [['skus', csv, '--concurrency', '0', '--sandbox'], /must be an integer from 1 to 256/],
      [['skus', csv], /No base URL/],
      [
        ['skus', csv, '--base-url', 'https://api.example.com/v2'],
        /No secret key: set PARTNER_PRINT_SECRET_KEY/,
      ],
      [
        ['skus', csv, '--base-url', 'https://api.example.com/v1', '--secret-key', 'sk_live_do_not_print'],
        /\bAPI V1\b.*\/v2/,
      ],
      [['orders', csv, '--sandbox', '--store', 'nonsense'], /--store expects <store_code>=<Store_reference>/],
      [['audit', join(dir, 'nope')], /Directory not found/],
      [['audit', csv], /Not a directory/],
    ];
    for (const [argv, message, env] of cases) {
      const r = await run(argv, { sandbox: newSandbox(), ...(env ? { env } : {}) });
      expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
      expect(r.stderr).toMatch(message);
      expect(r.stderr + r.stdout).not.toContain('sk_live_do_not_print');
    }
  });

  it('never prints the secret key, even when the API refuses it', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const csv = join(dir, 'skus.csv');
    writeFileSync(csv, `sku\n${sb.seed.legacySkus.poster}\n`);
    const key = 'sk_test_wrong_key_do_not_print';
    const orders = join(dir, 'orders.jsonl');
    writeFileSync(
      orders,
      '{"store_reference":"Store_x","shipping_kind":"combined","orderlines":[{"sku":"A","quantity":1}]}\n',
    );
    for (const argv of [
      ['skus', csv, '--base-url', sb.baseUrl, '--secret-key', key],
      ['orders', orders, '--base-url', sb.baseUrl, '--submit'],
    ]) {
      // Not --sandbox: the sandbox's transport with a wrong key.
      const r = await run(argv, {
        env: { PARTNER_PRINT_SECRET_KEY: key },
        intercept: (req) => sb.fetch(req),
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/The API refused the secret key \(401\)/);
      expect(r.stdout + r.stderr).not.toContain(key);
    }
  });
});
