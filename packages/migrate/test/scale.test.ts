import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readJsonLines } from '../src/node/files.ts';
import { lookups, newSandbox, run, tempDir } from './helpers.ts';

async function writeOrders(path: string, n: number, distinct: number, storeReference: string) {
  const ws = createWriteStream(path);
  for (let i = 0; i < n; i++) {
    const line = `${JSON.stringify({
      store_reference: storeReference,
      shipping_kind: 'combined',
      partner_reference: `P-${i}`,
      orderlines: [{ sku: `SKU-${i % distinct}`, quantity: 1 }],
    })}\n`;
    if (!ws.write(line)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
}

describe('at scale', () => {
  it('20,000 orders over 2,000 distinct SKUs → exactly 2,000 lookups', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    await writeOrders(file, 20_000, 2_000, sb.seed.stores.combined);
    const r = await run(['orders', file, '--sandbox', '--json', '--concurrency', '32'], {
      sandbox: sb,
      // A counting fetch that also answers the lookups (the sandbox knows only a few SKUs).
      intercept: (req) => {
        const sku = new URL(req.url).searchParams.get('legacyItemSku');
        return sku
          ? Response.json({ productReference: `Product_${sku.replace('-', '').padEnd(26, '0')}` })
          : undefined;
      },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ counts: { converted: 20_000 }, lookups: 2_000 });
    expect(lookups(r)).toHaveLength(2_000);
    expect(new Set(lookups(r).map((q) => new URL(q.url).searchParams.get('legacyItemSku'))).size).toBe(2_000);
    const lines = readFileSync(join(dir, 'orders.v2.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(JSON.parse(lines[19_999]!).line).toBe(20_000);
  }, 60_000);

  it('reads JSONL line by line without holding the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.jsonl');
    const ws = createWriteStream(file);
    const pad = 'x'.repeat(1000);
    for (let i = 0; i < 30_000; i++) if (!ws.write(`{"i":${i},"pad":"${pad}"}\n`)) await once(ws, 'drain');
    ws.end();
    await once(ws, 'finish');
    // Live memory after a full GC, so the numbers do not depend on when V8 chooses to collect.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let n = 0;
    let peak = 0;
    for await (const l of readJsonLines(file)) {
      n++;
      if (n % 5000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
      expect(l.error).toBeUndefined();
    }
    expect(n).toBe(30_000);
    // ~30 MB of input; the reader keeps only a few chunks alive.
    expect(peak).toBeLessThan(8 * 1024 * 1024);
  }, 60_000);
});
