import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stallFreeStopwatch } from '../../../../test-utils/stall.ts';
import { newSandbox, run, tempDir } from '../../test/helpers.ts';

const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** `count` combined V1 orders WEB-1…WEB-count, one per line. */
function ordersFile(sb: ReturnType<typeof newSandbox>, count: number) {
  const dir = tempDir();
  const file = join(dir, 'orders.jsonl');
  const line = (i: number) =>
    JSON.stringify({
      store_code: sb.seed.storeCodes.combined,
      shipping_kind: 'combined',
      partner_reference: `WEB-${i}`,
      orderlines: [{ sku: sb.seed.legacySkus.nonPrint, quantity: 1 }],
    });
  writeFileSync(file, `${Array.from({ length: count }, (_, i) => line(i + 1)).join('\n')}\n`);
  return { dir, file, report: join(dir, 'orders.report.jsonl') };
}

const isPost = (q: Request) => q.method === 'POST' && new URL(q.url).pathname.endsWith('/orders');
const isLookup = (q: Request) =>
  new URL(q.url).pathname.endsWith('/lookup-order-reference-by-custom-identifier');
const identifierOf = async (q: Request) =>
  ((await q.clone().json()) as { order: { customIdentifier: string } }).order.customIdentifier;

async function storedIdentifiers(sb: ReturnType<typeof newSandbox>) {
  const res = await sb.fetch(
    new Request(`${sb.baseUrl}/orders`, { headers: { 'X-Service-Secret-Key': sb.keys.primary } }),
  );
  return ((await res.json()) as { orders: Array<{ customIdentifier: string }> }).orders.map(
    (o) => o.customIdentifier,
  );
}

describe('orders --submit resumes after the last completed line', () => {
  it('a line that fails for a passing reason stops the resume point; the rerun starts there', async () => {
    const sb = newSandbox({ pageSize: 100 });
    const { file, report } = ordersFile(sb, 30);
    const args = ['orders', file, '--sandbox', '--submit', '--json', '--concurrency', '4'];
    // Every POST of WEB-20 is answered 503: a passing reason of this line, not of the run.
    const first = await run(args, {
      sandbox: sb,
      intercept: async (q) => {
        if (isPost(q) && (await identifierOf(q)) === 'WEB-20')
          return Response.json({ code: 'unavailable', message: 'try again later' }, { status: 503 });
        return undefined;
      },
    });
    expect(first.code).toBe(1);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({
      counts: { created: 29, 'not-done': 1 },
      resumeAfterLine: 19,
      interrupted: false,
      complete: false,
    });
    expect(readJsonl(report).find((l) => l.line === 20)).toMatchObject({ status: 'not-done' });

    const second = await run(args, { sandbox: sb });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      resumedAfterLine: 19,
      counts: { created: 20, existing: 10 },
      complete: true,
    });
    // Lines 1–19 were not looked at again: one lookup per line from 20 on.
    expect(second.requests.filter(isLookup)).toHaveLength(11);
    expect(second.requests.filter(isPost)).toHaveLength(1);
    const lines = readJsonl(report);
    expect(lines.map((l) => l.line)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(lines.every((l) => l.status === 'created' || l.status === 'existing')).toBe(true);
    expect((await storedIdentifiers(sb)).sort()).toHaveLength(30);

    // A completed run leaves nothing to resume: the next one checks every line (and creates nothing).
    const third = await run(args, { sandbox: sb });
    expect(JSON.parse(third.stdout)).toMatchObject({ counts: { existing: 30 } });
    expect(third.requests.filter(isPost)).toHaveLength(0);
  });

  // hops: how many promise reactions a released POST takes before it reaches the service (parsing its body
  // on a busy service). On the clock where every sleep moved time at once, the rerun's whole settle window
  // ran inside those hops: its lookups found nothing and it posted the 4 lines in flight again (64 orders
  // for 60 lines in CI, depending on promise-hop counts; 100,000 hops made it certain).
  it.each([
    ['', 0],
    [' (the held POSTs take 100,000 promise hops to commit once released)', 100_000],
  ])(
    'Ctrl-C stops within 2 s, records the lines in flight as not done, says interrupted; the rerun creates no duplicate%s',
    async (_, hops) => {
      const sb = newSandbox({ pageSize: 100 });
      const { file } = ordersFile(sb, 60);
      const args = ['orders', file, '--sandbox', '--submit', '--json', '--concurrency', '4'];
      const controller = new AbortController();
      // From WEB-10 on, the service takes its time: the commit lands once virtual time has moved (the client
      // gives up long before), as a slow service would.
      const held: Array<() => void> = [];
      sb.clock.onAdvance(() => {
        for (const release of held.splice(0)) release();
      });
      const slow = async (q: Request) => {
        if (!isPost(q) || Number((await identifierOf(q)).slice(4)) < 10) return undefined;
        if (!controller.signal.aborted) setTimeout(() => controller.abort(), 0);
        // Detached from the client's signal: the service goes on after the client gave up.
        const late = new Request(q.url, { method: 'POST', headers: q.headers, body: await q.text() });
        await new Promise<void>((resolve) => held.push(resolve));
        for (let i = 0; i < hops; i++) await Promise.resolve();
        return sb.fetch(late);
      };
      // Timed without the process's stalls (test-utils/stall.ts): what the run waits after Ctrl-C, its grace
      // period (1.5 s) and the answer of the lines given up (0.2 s), and the CPU it spends, count; a machine
      // that does not run the process for a second (pnpm test beside busy cores) does not.
      const run1 = stallFreeStopwatch();
      let stoppedAt = 0;
      controller.signal.addEventListener('abort', () => {
        stoppedAt = run1.elapsed();
      });
      let first: Awaited<ReturnType<typeof run>>;
      let ended: number;
      try {
        first = await run(args, { sandbox: sb, signal: controller.signal, intercept: slow });
        ended = run1.elapsed();
      } finally {
        run1.stop();
      }
      expect(first.code).toBe(130);
      expect(ended - stoppedAt).toBeLessThan(2_000);
      const summary = JSON.parse(first.stdout);
      expect(summary).toMatchObject({ interrupted: true, complete: false });
      expect(summary.counts['not-done']).toBeGreaterThan(0);
      expect(summary.resumeAfterLine).toBeGreaterThanOrEqual(9);
      expect(ended).toBeLessThan(10_000);

      // The held POSTs reach the service when virtual time moves: the rerun's settle window moves it, and
      // virtual time moves only when nothing else can run, so they commit before its next lookup finds them.
      const second = await run(args, { sandbox: sb });
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ complete: true, interrupted: false });
      // Whatever the first run left in flight has landed by now (or lands now).
      sb.clock.advance(60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const stored = await storedIdentifiers(sb);
      expect(stored).toHaveLength(60);
      expect(new Set(stored).size).toBe(60);
    },
  );

  it('the text summary says the run was interrupted and where to resume', async () => {
    const sb = newSandbox();
    const { file } = ordersFile(sb, 20);
    const controller = new AbortController();
    controller.abort();
    const r = await run(['orders', file, '--sandbox', '--submit'], {
      sandbox: sb,
      signal: controller.signal,
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/^Interrupted: /);
    expect(r.stdout).toContain('rerun the same command to resume after line 0');
  });
});

describe('orders stops at a failure of the whole run and records nothing from that line on', () => {
  it('--submit: the network goes down at line 10; no row for it or after it, the rerun continues at line 10', async () => {
    const sb = newSandbox({ pageSize: 100 });
    const { file, report } = ordersFile(sb, 30);
    const args = ['orders', file, '--sandbox', '--submit', '--concurrency', '1'];
    let down = false;
    const first = await run(args, {
      sandbox: sb,
      intercept: async (q) => {
        if (isLookup(q) && new URL(q.url).searchParams.get('customIdentifier') === 'WEB-10') down = true;
        if (down) throw new TypeError('fetch failed');
        return undefined;
      },
    });
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /Stopped at line 10: The API cannot be reached .*--base-url.*\nNothing from line 10 on was recorded; rerun the same command to continue\./,
    );
    const rows = readJsonl(report);
    expect(rows.map((l) => l.line)).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));
    expect(rows.every((l) => l.status === 'created')).toBe(true);
    const state = JSON.parse(readFileSync(`${report}.state.json`, 'utf8'));
    expect(state).toMatchObject({ line: 9, done: false, counts: { created: 9 } });

    const second = await run([...args, '--json'], { sandbox: sb });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      resumedAfterLine: 9,
      counts: { created: 30 },
      complete: true,
    });
    expect(readJsonl(report).map((l) => l.line)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await storedIdentifiers(sb)).toHaveLength(30);
  });

  it('dry run: SKU lookups fail from line 5 on; the run stops there instead of writing a failed row per line', async () => {
    const sb = newSandbox();
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const line = (i: number) =>
      JSON.stringify({
        store_code: sb.seed.storeCodes.combined,
        shipping_kind: 'combined',
        partner_reference: `WEB-${i}`,
        orderlines: [{ sku: `SKU-${i}`, quantity: 1 }],
      });
    writeFileSync(file, `${Array.from({ length: 12 }, (_, i) => line(i + 1)).join('\n')}\n`);
    const first = await run(['orders', file, '--sandbox', '--json', '--concurrency', '1'], {
      sandbox: sb,
      intercept: (q) => {
        const sku = new URL(q.url).searchParams.get('legacyItemSku');
        if (!sku) return undefined;
        if (Number(sku.slice(4)) >= 5) throw new TypeError('fetch failed');
        return Response.json({ productReference: `Product_${sku.replace('-', '').padEnd(26, 'x')}` });
      },
    });
    expect(first.code).toBe(1);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ stoppedAtLine: 5, complete: false, counts: { converted: 4 } });
    expect(summary.error).toMatch(/cannot be reached/);
    expect(readJsonl(join(dir, 'orders.report.jsonl')).map((l) => [l.line, l.status])).toEqual([
      [1, 'converted'],
      [2, 'converted'],
      [3, 'converted'],
      [4, 'converted'],
    ]);
  });

  it('a refused key mid-run: exit 2, nothing from the refused line on, the key named as the cause', async () => {
    const sb = newSandbox({ pageSize: 100 });
    const { file, report } = ordersFile(sb, 20);
    let refused = false;
    const first = await run(['orders', file, '--sandbox', '--submit', '--concurrency', '1'], {
      sandbox: sb,
      intercept: async (q) => {
        if (isPost(q) && (await identifierOf(q)) === 'WEB-7') refused = true;
        return refused
          ? Response.json({ code: 'unauthorized', message: 'Invalid key' }, { status: 401 })
          : undefined;
      },
    });
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/Stopped at line 7: The API refused the secret key \(401\)/);
    expect(readJsonl(report).map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(first.stdout + first.stderr).not.toContain(sb.keys.primary);
  });
});
