import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookups, newSandbox, run, tempDir } from './helpers.ts';

const read = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('skus against the sandbox', () => {
  it('resolves SKUs from before and after 2026-03-22, explains the shared item and reports unknown SKUs', async () => {
    const sb = newSandbox();
    const { legacySkus, products, items } = sb.seed;
    const dir = tempDir();
    const file = join(dir, 'skus.csv');
    writeFileSync(
      file,
      [
        'sku,note',
        `${legacySkus.print},old`,
        `${legacySkus.printNew},new`,
        `${legacySkus.printNew2},new2`,
        'NO-SUCH-SKU,x',
        `${legacySkus.print},again`,
        '',
      ].join('\n'),
    );
    const r = await run(['skus', file, '--sandbox'], { sandbox: sb });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 5: NO-SUCH-SKU: unknown');
    const out = read(join(dir, 'skus.products.jsonl'));
    expect(out.map((o) => [o.line, o.status, o.productReference, o.kind])).toEqual([
      [2, 'resolved', products.print, 'plain'],
      [3, 'resolved', products.printNew, 'suffixed'],
      [4, 'resolved', products.printNew2, 'suffixed'],
      [5, 'unknown', undefined, 'plain'],
      [6, 'resolved', products.print, 'plain'],
    ]);
    // The plain SKU of an item with several products: only the product from before 2026-03-22 carries it,
    // so it is not shared; the note names the other products' suffixed SKUs.
    expect(out[0].shared).toBeUndefined();
    expect(out[0].note).toContain(`belongs to one product of item ${items.shared}`);
    expect(out[0].note).toContain(`${legacySkus.printNew} → ${products.printNew}`);
    expect(out[0].input).toEqual({ note: 'old' });
    expect(out[1].shared).toBeUndefined();
    // One lookup per distinct SKU.
    expect(lookups(r)).toHaveLength(4);
  });

  it('writes CSV, reads JSONL, prints JSON', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'skus.jsonl');
    writeFileSync(
      file,
      `{"sku":"${sb.seed.legacySkus.poster}"}\n"${sb.seed.legacySkus.nonPrint}"\n{"nope":1}\n{bad json\n`,
    );
    const out = join(dir, 'out.csv');
    const r = await run(['skus', file, '--sandbox', '-o', out, '--json'], { sandbox: sb });
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.stdout);
    expect(summary.counts).toEqual({ resolved: 2, malformed: 2 });
    const csv = readFileSync(out, 'utf8').trim().split('\n');
    expect(csv[0]).toBe('line,sku,status,product_reference,shared_item,note');
    expect(csv[1]).toContain(sb.seed.products.poster);
    expect(csv[3]).toMatch(/^3,,malformed,/);
    expect(csv[4]).toMatch(/^4,,malformed,.*Malformed JSON on line 4/);
  });

  it('resumes an interrupted run where it stopped', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'skus.csv');
    const skus = Array.from({ length: 300 }, (_, i) => `SKU-${i}`);
    writeFileSync(file, `sku\n${skus.join('\n')}\n`);
    const answer = (req: Request) => {
      const sku = new URL(req.url).searchParams.get('legacyItemSku');
      return sku
        ? Response.json({ productReference: `Product_${sku.replace('-', '').padEnd(26, 'x')}` })
        : undefined;
    };
    const controller = new AbortController();
    let n = 0;
    const first = await run(['skus', file, '--sandbox', '--no-sharing', '--concurrency', '4'], {
      sandbox: sb,
      signal: controller.signal,
      intercept: (req) => {
        if (++n === 120) controller.abort();
        return answer(req);
      },
    });
    expect(first.code).toBe(130);
    expect(first.stderr).toMatch(/Interrupted after line \d+; rerun the same command to continue/);
    const partial = read(join(dir, 'skus.products.jsonl'));
    expect(partial.length).toBeGreaterThanOrEqual(100);
    expect(partial.length).toBeLessThan(300);
    const state = JSON.parse(readFileSync(join(dir, 'skus.products.jsonl.state.json'), 'utf8'));
    expect(state).toMatchObject({ done: false, line: partial.at(-1).line });

    const second = await run(['skus', file, '--sandbox', '--no-sharing'], { sandbox: sb, intercept: answer });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Resumed after line \d+/);
    const all = read(join(dir, 'skus.products.jsonl'));
    expect(all.map((o) => o.sku)).toEqual(skus);
    expect(all.every((o) => o.status === 'resolved')).toBe(true);
    // The second run looked up only what the first had not written.
    expect(lookups(second)).toHaveLength(300 - partial.length);

    const third = await run(['skus', file, '--sandbox', '--no-sharing'], { sandbox: sb, intercept: answer });
    expect(third.code).toBe(0);
    expect(third.stdout).not.toMatch(/Resumed/);
  });

  it('uses a persistent cache across runs', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'skus.csv');
    writeFileSync(file, `sku\n${sb.seed.legacySkus.poster}\n${sb.seed.legacySkus.nonPrint}\n`);
    const cache = join(dir, 'cache', 'skus.jsonl');
    const a = await run(['skus', file, '--sandbox', '--cache', cache], { sandbox: sb });
    expect(lookups(a)).toHaveLength(2);
    const b = await run(['skus', file, '--sandbox', '--cache', cache, '--restart', '--json'], {
      sandbox: sb,
    });
    expect(lookups(b)).toHaveLength(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ cacheHits: 2, counts: { resolved: 2 } });
  });

  it('refuses to run while another run holds the state, and takes over a stale lock', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'skus.csv');
    writeFileSync(file, `sku\n${sb.seed.legacySkus.poster}\n`);
    const lock = join(dir, 'skus.products.jsonl.state.json.lock');
    writeFileSync(lock, String(process.ppid));
    const busy = await run(['skus', file, '--sandbox'], { sandbox: sb });
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/Another run \(pid \d+\) is using/);
    writeFileSync(lock, '999999999');
    const ok = await run(['skus', file, '--sandbox'], { sandbox: sb });
    expect(ok.code).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });
});
