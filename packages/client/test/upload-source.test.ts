// An upload's source that yields what is not bytes ends in the SDK's hierarchy (ValidationError,
// invalid_upload, with the call's method and path) with the source closed, nothing sent. A source that fails
// midway still rejects with its own error, as upload-iterable.test.ts asks.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { uploadImage, ValidationError } from '../src/index.ts';
import { json, PNG } from './fake.ts';
import { fakeClient } from './helpers.ts';

const clientWith = fakeClient;

describe.each([
  ['main entry', false],
  ['lite entry', true],
])('uploads: a source yielding what is not bytes, or failing midway (%s)', (_name, lite) => {
  const setup = () => {
    const { client, seen } = clientWith(() => json({ image: { reference: 'Image_1' } }, 201), lite);
    return { seen, upload: (data: unknown) => uploadImage(client, data as never) };
  };

  it('an async generator yielding a string: invalid_upload (a ValidationError), the generator closed', async () => {
    const { seen, upload } = setup();
    let closed = false;
    async function* chunks() {
      try {
        yield PNG.subarray(0, 4);
        yield 'not bytes';
        yield PNG.subarray(4);
      } finally {
        closed = true;
      }
    }
    const error = await upload(chunks()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      code: 'invalid_upload',
      operation: lite ? 'POST /images' : 'uploadImage',
      method: 'POST',
      path: '/images',
    });
    expect(closed).toBe(true);
    expect(seen).toEqual([]);
  });

  it('a Node Readable in object mode yielding a string: invalid_upload, the stream destroyed', async () => {
    const { seen, upload } = setup();
    const readable = Readable.from([PNG.subarray(0, 4), 'not bytes', PNG.subarray(4)]);
    const error = await upload(readable).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'invalid_upload' });
    expect(readable.destroyed).toBe(true);
    expect(seen).toEqual([]);
  });

  it('a ReadableStream giving a string: invalid_upload, the stream cancelled', async () => {
    const { seen, upload } = setup();
    let cancelled: unknown;
    const stream = new ReadableStream<unknown>({
      start(c) {
        c.enqueue(PNG.subarray(0, 4));
        c.enqueue('not bytes');
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const error = await upload(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'invalid_upload', method: 'POST', path: '/images' });
    expect(cancelled).toBe(error);
    expect(seen).toEqual([]);
  });

  it('a source whose chunks are split still sends its bytes whole, once', async () => {
    const { seen, upload } = setup();
    async function* chunks() {
      yield PNG.subarray(0, 3);
      yield PNG.subarray(3, 5);
      yield PNG.subarray(5);
    }
    expect(await upload(chunks())).toBe('Image_1');
    expect(seen.map((s) => s.body)).toEqual([PNG]);
  });
});
