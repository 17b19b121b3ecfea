import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIF_B64, newSandbox, PNG_B64, run, tempDir } from './helpers.ts';

const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

async function listOrders(sb: ReturnType<typeof newSandbox>) {
  const refs: string[] = [];
  let cursor: string | null = null;
  do {
    const url = new URL(`${sb.baseUrl}/orders`);
    if (cursor) url.searchParams.set('cursor', cursor);
    const res = await sb.fetch(new Request(url, { headers: { 'X-Service-Secret-Key': sb.keys.primary } }));
    const body = (await res.json()) as { orders: Array<{ reference: string }>; nextCursor: string | null };
    refs.push(...body.orders.map((o) => o.reference));
    cursor = body.nextCursor;
  } while (cursor);
  return refs;
}

function v1Orders(sb: ReturnType<typeof newSandbox>) {
  const { legacySkus, storeCodes } = sb.seed;
  return [
    {
      store_code: storeCodes.dropship,
      shipping_kind: 'dropship',
      partner_reference: 'WEB-1',
      dropship_address: {
        firstname: 'Ada',
        streetname: 'Dam',
        housenumber: '1',
        zipcode: '1012 JS',
        city: 'Amsterdam',
        country_code: 'NL',
      },
      orderlines: [
        { sku: legacySkus.print, image: PNG_B64, quantity: 1 },
        { sku: legacySkus.nonPrint, quantity: 2 },
      ],
    },
    {
      store_code: storeCodes.combined,
      shipping_kind: 'combined',
      orderlines: [{ sku: legacySkus.printNew, image: `data:image/png;base64,${PNG_B64}`, quantity: 1 }],
      legacy_status: 'open',
    },
  ];
}

describe('orders against the sandbox', () => {
  it('dry run converts, reports every field and creates nothing', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    writeFileSync(
      file,
      `${v1Orders(sb)
        .map((o) => JSON.stringify(o))
        .join('\n')}\n`,
    );
    const before = await listOrders(sb);
    const r = await run(['orders', file, '--sandbox'], { sandbox: sb });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Dry run.*2 converted/);
    expect(await listOrders(sb)).toEqual(before);
    expect(r.requests.some((q) => q.method === 'POST')).toBe(false);
    const out = readJsonl(join(dir, 'orders.v2.jsonl'));
    expect(out[0].order).toMatchObject({
      storeReference: sb.seed.stores.dropship,
      customIdentifier: 'WEB-1',
      dropshipAddress: { countryCode: 'NL' },
      orderlines: [
        { productReference: sb.seed.products.print, quantity: 1 },
        { productReference: sb.seed.products.nonPrint, quantity: 2 },
      ],
    });
    expect(out[0].order.orderlines[0].imageReference).toMatch(/^dry-run:sha256:/);
    expect(out[1].order.customIdentifier).toMatch(/^v1-[0-9a-f]{32}$/);
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report[1]).toMatchObject({ line: 2, status: 'converted', customIdentifierSource: 'derived' });
    expect(report[1].report).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'legacy_status', action: 'unknown' })]),
    );
  });

  it('--store-reference is the store of orders with neither store_reference nor store_code', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const [, combined] = v1Orders(sb);
    const { store_code: _, ...storeless } = combined!;
    writeFileSync(file, `${JSON.stringify(storeless)}\n`);
    const without = await run(['orders', file, '--sandbox'], { sandbox: sb });
    expect(without.code).not.toBe(0);
    const r = await run(['orders', file, '--sandbox', '--store-reference', sb.seed.stores.combined], {
      sandbox: sb,
    });
    expect(r.code).toBe(0);
    expect(readJsonl(join(dir, 'orders.v2.jsonl'))[0].order.storeReference).toBe(sb.seed.stores.combined);
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report[0].report).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: '(default)', to: 'storeReference' })]),
    );
  });

  it('--submit refuses a second order of the file that reuses an identifier for other content', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const [dropship] = v1Orders(sb);
    const other = { ...dropship!, orderlines: [{ sku: sb.seed.legacySkus.nonPrint, quantity: 5 }] };
    writeFileSync(file, `${JSON.stringify(dropship)}\n${JSON.stringify(other)}\n`);
    const before = await listOrders(sb);
    const r = await run(['orders', file, '--sandbox', '--submit', '--json', '--concurrency', '1'], {
      sandbox: sb,
    });
    expect(r.code).not.toBe(0);
    expect(JSON.parse(r.stdout).counts).toEqual({ created: 1, failed: 1 });
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report[1]).toMatchObject({
      line: 2,
      status: 'failed',
      errors: [expect.objectContaining({ code: 'identifier_conflict' })],
    });
    expect((await listOrders(sb)).length - before.length).toBe(1);
  });

  it('--submit twice creates each order exactly once', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const lines = v1Orders(sb).map((o) => JSON.stringify(o));
    // The same order exported twice counts as one.
    writeFileSync(file, `${[...lines, lines[1]].join('\n')}\n`);
    const before = await listOrders(sb);
    const first = await run(['orders', file, '--sandbox', '--submit', '--json'], { sandbox: sb });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      mode: 'submit',
      counts: { created: 2, existing: 1 },
      uploads: 1,
    });
    const after = await listOrders(sb);
    expect(after.length - before.length).toBe(2);
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report.map((x) => x.status)).toEqual(['created', 'created', 'existing']);
    expect(report[2].orderReference).toBe(report[1].orderReference);

    const second = await run(['orders', file, '--sandbox', '--submit', '--json'], { sandbox: sb });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).counts).toEqual({ existing: 3 });
    expect(await listOrders(sb)).toEqual(after);
    const again = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(again.map((x) => x.orderReference)).toEqual(report.map((x) => x.orderReference));
    expect(second.requests.filter((q) => q.method === 'POST' && q.url.endsWith('/orders'))).toHaveLength(0);
  });

  it('--submit: of two lines that are one order, the earlier is created and the later existing, whichever converts first', async () => {
    // Two SKUs of the same product, the earlier line's lookup answered 200 ms late, so the later line is
    // converted first. Without the turns in file order it took the order first (reported `created`, the
    // earlier line `existing`); with them the earlier line is still the one that creates it.
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const order = (sku: string) => ({
      store_code: sb.seed.storeCodes.combined,
      shipping_kind: 'combined',
      partner_reference: 'WEB-TWICE',
      orderlines: [{ sku, quantity: 1 }],
    });
    writeFileSync(file, `${JSON.stringify(order('SLOW-SKU'))}\n${JSON.stringify(order('FAST-SKU'))}\n`);
    const r = await run(['orders', file, '--sandbox', '--submit', '--json'], {
      sandbox: sb,
      intercept: async (req) => {
        const sku = new URL(req.url).searchParams.get('legacyItemSku');
        if (!sku) return undefined;
        if (sku === 'SLOW-SKU') await new Promise((resolve) => setTimeout(resolve, 200));
        return Response.json({ productReference: sb.seed.products.nonPrint });
      },
    });
    expect(r.code).toBe(0);
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report.map((x) => x.status)).toEqual(['created', 'existing']);
    expect(report[1].orderReference).toBe(report[0].orderReference);
  });

  it('reports bad lines with their line numbers and still processes the others', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const [good] = v1Orders(sb);
    const gif = {
      ...good,
      partner_reference: 'WEB-GIF',
      orderlines: [{ sku: sb.seed.legacySkus.print, image: GIF_B64, quantity: 1 }],
    };
    const unknown = {
      ...good,
      partner_reference: 'WEB-UNK',
      orderlines: [{ sku: 'NO-SUCH-SKU', quantity: 1 }],
    };
    writeFileSync(
      file,
      [
        JSON.stringify(good),
        '{"store_code": oops',
        '',
        JSON.stringify(gif),
        JSON.stringify(unknown),
        '[1]',
      ].join('\n'),
    );
    const r = await run(['orders', file, '--sandbox', '--submit'], { sandbox: sb });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 2: Malformed JSON on line 2/);
    expect(r.stderr).toMatch(/line 4: orderlines\[0\]\.image: .*GIF; V2 accepts only JPEG and PNG/);
    expect(r.stderr).toMatch(/line 5: Unknown SKU NO-SUCH-SKU/);
    expect(r.stderr).toMatch(/line 6: A V1 order must be a JSON object/);
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report.map((x) => [x.line, x.status])).toEqual([
      [1, 'created'],
      [2, 'failed'],
      [4, 'failed'],
      [5, 'failed'],
      [6, 'failed'],
    ]);
    // No GIF was sent to POST /images.
    expect(r.requests.filter((q) => q.url.endsWith('/images'))).toHaveLength(1);
  });
});

describe('orders output', () => {
  it('groups a repeated problem into one line with a count and line ranges, wherever the SKU sits in the order', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const bad = new Set([3, 4, 5, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    const known = { sku: sb.seed.legacySkus.nonPrint, quantity: 1 };
    const line = (n: number) =>
      JSON.stringify({
        store_code: sb.seed.storeCodes.combined,
        shipping_kind: 'combined',
        partner_reference: `WEB-${n}`,
        // The unknown SKU first on odd lines, second on even ones: another orderline index each time.
        orderlines: bad.has(n)
          ? n % 2
            ? [{ sku: 'ABC123P001', quantity: 1 }, known]
            : [known, { sku: 'ABC123P001', quantity: 1 }]
          : [known],
      });
    writeFileSync(file, `${Array.from({ length: 22 }, (_, i) => line(i + 1)).join('\n')}\n`);
    const r = await run(['orders', file, '--sandbox'], { sandbox: sb });
    expect(r.code).toBe(1);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('ABC123P001'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^lines 3–5, 9, 12–21 \(14 lines\): Unknown SKU ABC123P001\. /);
    const json = await run(['orders', file, '--sandbox', '--json'], { sandbox: sb });
    expect(JSON.parse(json.stdout).problems).toEqual([warnings[0]]);
  });
});
