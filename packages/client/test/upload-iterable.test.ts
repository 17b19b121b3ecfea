// A Node.js stream is what a partner's code has in hand for a file (fs.createReadStream, a request body, an
// S3 object's Body): an async iterable of byte chunks, not a web ReadableStream. An upload takes it as it takes
// a ReadableStream (read to the end, the signature checked, within the call's signal), and any async iterable
// of byte chunks likewise; other values are still refused with invalid_upload, nothing sent.
import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AbortedError } from '../src/index.ts';
import { uploadEvidence, uploadImage } from '../src/lite.ts';
import { bodyRecordingClient, samplePng } from './helpers.ts';

describe.each([
  ['main entry', false],
  ['lite entry', true],
])('uploads of a Node.js stream or an async iterable of bytes (%s)', (_name, lite) => {
  const setup = () => bodyRecordingClient(lite);

  it('takes fs.createReadStream of a PNG file, and sends its bytes', async () => {
    const { sent, client } = setup();
    const png = samplePng();
    const file = join(mkdtempSync(join(tmpdir(), 'pp-upload-')), 'logo.png');
    writeFileSync(file, png);
    expect(await uploadImage(client, createReadStream(file, { highWaterMark: 7 }))).toMatch(/^Image_/);
    expect(await uploadEvidence(client, Readable.from([png.subarray(0, 5), png.subarray(5)]))).toMatch(
      /^Evidence_/,
    );
    expect(sent).toEqual([png, png]);
  });

  it('takes an async generator of byte chunks', async () => {
    const { sent, client } = setup();
    const png = samplePng();
    async function* chunks() {
      yield png.subarray(0, 3);
      yield png.subarray(3);
    }
    expect(await uploadImage(client, chunks())).toMatch(/^Image_/);
    expect(sent).toEqual([png]);
  });

  it('checks its bytes like any upload: not a JPEG or PNG, nothing sent', async () => {
    const { sent, client } = setup();
    await expect(uploadImage(client, Readable.from([Buffer.from('not an image')]))).rejects.toMatchObject({
      code: 'unsupported_image_format',
    });
    expect(sent).toEqual([]);
  });

  it("stops reading a stream that stalls when the call's signal aborts, nothing sent", async () => {
    const { sent, client } = setup();
    const stalled = new Readable({ read() {} }); // never gives a chunk
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(uploadImage(client, stalled, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(sent).toEqual([]);
  });

  it('still refuses what is not bytes: a sync iterable of numbers, a string', async () => {
    const { sent, client } = setup();
    for (const data of [[1, 2, 3], 'logo.png', { [Symbol.iterator]: () => [][Symbol.iterator]() }])
      await expect(uploadImage(client, data as never)).rejects.toMatchObject({ code: 'invalid_upload' });
    expect(sent).toEqual([]);
  });
});

// Chromium (156 here) and Safari have no ReadableStream.from: an async iterable given there is read through a
// stream of the client's own, pulled chunk by chunk, its iterator closed when the read stops early.
describe.each([
  ['main entry', false],
  ['lite entry', true],
])('uploads of an async iterable where ReadableStream.from is missing (%s)', (_name, lite) => {
  const withoutFrom = async (run: () => Promise<void>) => {
    const from = Object.getOwnPropertyDescriptor(ReadableStream, 'from');
    Reflect.deleteProperty(ReadableStream, 'from');
    try {
      expect('from' in ReadableStream).toBe(false);
      await run();
    } finally {
      if (from) Object.defineProperty(ReadableStream, 'from', from);
    }
  };

  it('takes an async generator of byte chunks, and sends its bytes', () =>
    withoutFrom(async () => {
      const { sent, client } = bodyRecordingClient(lite);
      const png = samplePng();
      async function* chunks() {
        yield png.subarray(0, 3);
        yield png.subarray(3, 10);
        yield png.subarray(10);
      }
      expect(await uploadImage(client, chunks())).toMatch(/^Image_/);
      expect(sent).toEqual([png]);
    }));

  it("closes the iterator of one that stalls when the call's signal aborts, nothing sent", () =>
    withoutFrom(async () => {
      const { sent, client } = bodyRecordingClient(lite);
      let closed = false;
      const stalled: AsyncIterable<Uint8Array> = {
        [Symbol.asyncIterator]: () => ({
          next: () => new Promise<IteratorResult<Uint8Array>>(() => {}), // never gives a chunk
          return: async () => {
            closed = true;
            return { done: true, value: undefined };
          },
        }),
      };
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('cancelled')), 20);
      await expect(uploadImage(client, stalled, { signal: controller.signal })).rejects.toBeInstanceOf(
        AbortedError,
      );
      expect(closed).toBe(true);
      expect(sent).toEqual([]);
    }));

  it('gives the failure of the iterable as the same error as where ReadableStream.from is, nothing sent', async () => {
    const { sent, client } = bodyRecordingClient(lite);
    async function* failing() {
      yield samplePng().subarray(0, 4);
      throw new Error('disk gone');
    }
    const failure = (error: unknown) => {
      const { name, code, message } = error as { name: string; code?: string; message: string };
      return { name, code, message };
    };
    const expected = await uploadImage(client, failing()).then(() => 'uploaded', failure);
    expect(expected).toMatchObject({ name: 'Error', message: 'disk gone' }); // the source's own error, as it is
    await withoutFrom(async () => {
      expect(await uploadImage(client, failing()).then(() => 'uploaded', failure)).toEqual(expected);
    });
    expect(sent).toEqual([]);
  });
});
