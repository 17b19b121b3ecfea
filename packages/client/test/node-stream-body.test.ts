// A partner's own fetch whose answers carry a Node stream as their body (node-fetch v2, whose `body` is a Node
// `Readable`, not a web ReadableStream; its `blob()` its own Blob class). The client reads, cancels and hands on
// web streams: such an answer must be read as any other, for download in each form, get's JSON, an error's
// body, a 202 whose body is cancelled before the next ask, a retried 503.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createClient, NotFoundError } from '../src/index.ts';
import { createClient as createLiteClient, download } from '../src/lite.ts';
import { fakeFetch, json, KEY, PNG, testClock } from './fake.ts';

/** The shape of node-fetch v2's Response: a Node stream as `body`, its methods reading that stream. */
class NodeFetchResponse {
  readonly body: Readable;
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;
  constructor(web: Response) {
    this.body = web.body ? Readable.fromWeb(web.body as never) : Readable.from([]);
    this.status = web.status;
    this.statusText = web.statusText;
    this.ok = web.ok;
    this.headers = web.headers;
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.body) chunks.push(chunk as Buffer);
    const all = Buffer.concat(chunks);
    return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  }
  async text() {
    return new TextDecoder().decode(await this.arrayBuffer());
  }
  async json() {
    return JSON.parse(await this.text());
  }
  // node-fetch v2's own Blob: not the platform's.
  async blob() {
    const bytes = await this.arrayBuffer();
    return { [Symbol.toStringTag]: 'Blob', size: bytes.byteLength, arrayBuffer: async () => bytes };
  }
}

const media = { params: { path: { renderReference: 'Render_1' } } } as const;
const PATH = '/renders/{renderReference}/media';
const png = () => new Response(PNG, { headers: { 'content-type': 'image/png' } });

/** A client of either entry whose fetch answers from `handler` through node-fetch's Response. */
function nodeFetchClient(lite: boolean, handler: (req: Request, n: number) => Response) {
  const { fetch, seen } = fakeFetch(handler);
  const options = {
    secretKey: KEY,
    baseUrl: 'https://api.example.test/v2',
    fetch: (async (req: Request) =>
      new NodeFetchResponse(await fetch(req))) as unknown as typeof globalThis.fetch,
    clock: testClock(),
    telemetry: false as const,
  };
  // The main entry with its default scheduler, which sends through the same fetch.
  const client = lite ? createLiteClient({ ...options, rateLimit: false }) : createClient(options);
  return { client, seen };
}

const bytesOf = async (stream: ReadableStream<Uint8Array>) =>
  new Uint8Array(await new Response(stream).arrayBuffer());

describe.each([
  ['main entry', false],
  ['lite entry', true],
])('a fetch answering with a Node stream as the body (%s)', (_name, lite) => {
  it("download as: 'stream' hands on a web ReadableStream of the file", async () => {
    const { client } = nodeFetchClient(lite, png);
    const { data } = await download(client, PATH, media, { as: 'stream' });
    expect(data).toBeInstanceOf(ReadableStream);
    expect(await bytesOf(data)).toEqual(PNG);
  });

  it("download as: 'bytes' and 'blob' read the file, the blob the platform's Blob", async () => {
    const { client } = nodeFetchClient(lite, png);
    expect((await download(client, PATH, media)).data).toEqual(PNG);
    const { data: blob, contentType } = await download(client, PATH, media, { as: 'blob' });
    expect(blob).toBeInstanceOf(Blob);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG);
    expect(contentType).toBe('image/png');
  });

  it('download waits out a 202 (its body cancelled) and reads the file', async () => {
    const { client, seen } = nodeFetchClient(lite, (_req, n) =>
      n === 1 ? new Response('pending', { status: 202, headers: { 'retry-after': '1' } }) : png(),
    );
    expect((await download(client, PATH, media)).data).toEqual(PNG);
    expect(seen).toHaveLength(2);
  });

  it('an answer of a status without a body (204) is read as one', async () => {
    const { client } = nodeFetchClient(lite, () => new Response(null, { status: 204 }));
    const { data, response } = await client.GET('/orders', {});
    expect([data, response.status]).toEqual([undefined, 204]);
  });

  it('a same-origin redirect is followed (its body cancelled)', async () => {
    const { client, seen } = nodeFetchClient(lite, (_req, n) =>
      n === 1
        ? new Response('moved', { status: 307, headers: { location: '/v2/orders?moved=1' } })
        : json({ orders: [], nextCursor: null }),
    );
    expect(await client.get('/orders', {})).toEqual({ orders: [], nextCursor: null });
    expect(seen.map(({ url }) => url)).toEqual([
      'https://api.example.test/v2/orders',
      'https://api.example.test/v2/orders?moved=1',
    ]);
  });

  it('a 429 is waited out and asked again (its body cancelled)', async () => {
    const { client, seen } = nodeFetchClient(lite, (_req, n) =>
      n === 1
        ? json({ code: 'rate_limited', message: 'Slow down.' }, 429, { 'retry-after': '0' })
        : json({ orders: [], nextCursor: null }),
    );
    expect(await client.get('/orders', {})).toEqual({ orders: [], nextCursor: null });
    expect(seen).toHaveLength(2);
  });

  it("get reads the JSON, a 503 is retried, and an error answer's body gives its code", async () => {
    const { client, seen } = nodeFetchClient(lite, (req, n) =>
      req.url.endsWith('/orders/Order_gone')
        ? json({ code: 'not_found', message: 'No such order.' }, 404)
        : n === 1
          ? json({ code: 'unavailable', message: 'Busy.' }, 503, { 'retry-after': '0' })
          : json({ orders: [], nextCursor: null }),
    );
    expect(await client.get('/orders', {})).toEqual({ orders: [], nextCursor: null });
    expect(seen).toHaveLength(2);
    const error = await client
      .get('/orders/{orderReference}', { params: { path: { orderReference: 'Order_gone' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
  });
});
