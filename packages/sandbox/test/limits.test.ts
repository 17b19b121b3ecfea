import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workerScript } from '../../../test-utils/worker-script.ts';
import {
  MAX_ADDRESS_FIELD_LENGTH,
  MAX_CLAIMLINES,
  MAX_JSON_BODY_BYTES,
  MAX_ORDERLINES,
  MAX_QUANTITY,
} from '../src/limits.ts';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

type Err = { code: string; message: string };
const MB = 1024 * 1024;

function combinedOrder(s: ReturnType<typeof setup>, extra: Record<string, unknown>) {
  return {
    order: {
      storeReference: s.seed.stores.combined,
      shippingKind: 'combined',
      orderlines: [{ productReference: s.seed.products.nonPrint, quantity: 1 }],
      ...extra,
    },
  };
}

/** A body sent in chunks without a Content-Length, as a streaming client would. */
function streamed(text: string, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

describe('request body and list limits', () => {
  it('refuses a 10 MB JSON body with 413 payload_too_large, declared or streamed', async () => {
    const s = setup();
    const body = JSON.stringify(combinedOrder(s, { customIdentifier: 'x'.repeat(10 * MB) }));
    const declared = await s.a.post('/orders', JSON.parse(body));
    expect(declared.status).toBe(413);
    expect(await json<Err>(declared)).toMatchObject({ code: 'payload_too_large' });
    const chunked = await s.a.raw('/orders', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: streamed(body),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await json<Err>(chunked)).message).toContain(String(MAX_JSON_BODY_BYTES));
    expect(await json(await s.a.get('/orders'))).toMatchObject({ orders: [] });
  });

  it('refuses 100,000 orderlines: 413 when over the body limit, 422 too_many_orderlines when compact', async () => {
    const s = setup();
    const line = { productReference: s.seed.products.nonPrint, quantity: 1 };
    const full = await s.a.post('/orders', combinedOrder(s, { orderlines: Array(100_000).fill(line) }));
    expect(full.status).toBe(413);
    const compact = await s.a.post('/orders', combinedOrder(s, { orderlines: Array(100_000).fill({}) }));
    expect(compact.status).toBe(422);
    expect(await json<Err>(compact)).toMatchObject({ code: 'too_many_orderlines' });
    const atLimit = await s.a.post(
      '/orders',
      combinedOrder(s, { orderlines: Array(MAX_ORDERLINES).fill(line) }),
    );
    expect(atLimit.status).toBe(200);
  });

  it('caps quantities, address fields and claimlines', async () => {
    const s = setup();
    const quantity = await s.a.post(
      '/orders',
      combinedOrder(s, {
        orderlines: [{ productReference: s.seed.products.nonPrint, quantity: MAX_QUANTITY + 1 }],
      }),
    );
    expect(await json<Err>(quantity)).toMatchObject({ code: 'invalid_quantity' });
    const address = await s.a.post('/orders', {
      order: {
        storeReference: s.seed.stores.dropship,
        shippingKind: 'dropship',
        dropshipAddress: { city: 'x'.repeat(MAX_ADDRESS_FIELD_LENGTH + 1), countryCode: 'NL' },
        orderlines: [{ productReference: s.seed.products.nonPrint, quantity: 1 }],
      },
    });
    expect(address.status).toBe(422);
    expect(await json<Err>(address)).toMatchObject({ code: 'invalid_address' });
    const { orderReference, shipmentReference } = await s.shipped();
    const claimline = {
      orderlineIndex: 1,
      quantity: 1,
      claimcategoryReference: s.seed.claimcategories.wrongItem,
    };
    const claim = await s.a.post('/claim-item-issues', {
      claim: { shipmentReference, orderReference, claimlines: Array(MAX_CLAIMLINES + 1).fill(claimline) },
    });
    expect(claim.status).toBe(422);
    expect(await json<Err>(claim)).toMatchObject({ code: 'too_many_claimlines' });
  });

  it('refuses an upload whose declared length is over the limit without reading it', async () => {
    const s = setup();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const res = await s.a.raw('/images', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(60 * MB) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await json<Err>(res)).toMatchObject({ code: 'payload_too_large' });
    expect(pulled).toBeLessThan(10);
  });
});

/** Peak resident memory of a process, in bytes (Linux). */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status);
  if (!kb) throw new Error('no VmHWM in /proc status');
  return Number(kb[1]) * 1024;
}

async function startServer(): Promise<{ child: ChildProcess; url: string; key: string }> {
  const cli = workerScript(new URL('../src/node/cli.ts', import.meta.url));
  const child = spawn(process.execPath, [cli, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Stop with Ctrl+C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  const url = /base URL\s+(\S+)/.exec(out)![1]!;
  const key = /primary\s+(sk_test_\S+)/.exec(out)![1]!;
  return { child, url, key };
}

describe('the Node server under hostile bodies', () => {
  it('keeps its peak RSS within 120 MB of its start while refusing 10 MB bodies and 100,000 orderlines', async () => {
    const { child, url, key } = await startServer();
    try {
      const seed = (await (await fetch(url.replace('/v2', '/_sandbox'))).json()) as {
        seed: { stores: { combined: string }; products: { nonPrint: string } };
      };
      // A connection per request: a kept-alive socket that the client reuses just as the server's keep-alive
      // timeout (5 s) closes it fails the POST with EPIPE. A client process starved for over a second between
      // the rounds (an idle-class run beside busy cores) met that race, which this test is not about.
      const headers = {
        'X-Service-Secret-Key': key,
        'Content-Type': 'application/json',
        Connection: 'close',
      };
      const order = (extra: Record<string, unknown>) =>
        JSON.stringify({
          order: {
            storeReference: seed.seed.stores.combined,
            shippingKind: 'combined',
            orderlines: [{ productReference: seed.seed.products.nonPrint, quantity: 1 }],
            ...extra,
          },
        });
      const line = { productReference: seed.seed.products.nonPrint, quantity: 1 };
      const bodies = [
        order({ customIdentifier: 'x'.repeat(10 * MB) }),
        order({ orderlines: Array(100_000).fill(line) }),
        order({ orderlines: Array(100_000).fill({}) }),
      ];
      const before = peakRss(child.pid!);
      const statuses: number[] = [];
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(
          Array.from({ length: 9 }, (_, i) =>
            fetch(`${url}/orders`, { method: 'POST', headers, body: bodies[i % bodies.length] }),
          ),
        );
        for (const res of answers) {
          statuses.push(res.status);
          await res.arrayBuffer();
        }
      }
      expect(peakRss(child.pid!) - before).toBeLessThan(120 * MB);
      expect(statuses).toEqual(Array.from({ length: 18 }, (_, i) => (i % bodies.length === 2 ? 422 : 413)));
      const list = await fetch(`${url}/orders`, { headers });
      expect(await list.json()).toMatchObject({ orders: [] });
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
