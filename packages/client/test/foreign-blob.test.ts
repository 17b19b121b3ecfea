// A Blob of another implementation than the platform's: jsdom's (a Jest suite with testEnvironment: 'jsdom'),
// npm fetch-blob's or formdata-node's. Each keeps its bytes in private state, tells what it is by its
// Symbol.toStringTag and is read through its own arrayBuffer()/stream(); `instanceof Blob` is false for it.
// An upload must take it as the README documents a Blob, and still refuse what cannot be read.
import { describe, expect, it } from 'vitest';
import { uploadEvidence, uploadImage } from '../src/lite.ts';
import { bodyRecordingClient, samplePng } from './helpers.ts';

/**
 * The shape of jsdom's Blob and File (arrayBuffer() and text() since jsdom/jsdom#4050, no stream() yet): private bytes,
 * the tag, read through its own methods.
 */
class OtherBlob {
  readonly #bytes: Uint8Array;
  readonly #type: string;
  readonly #tag: string;
  constructor(bytes: Uint8Array, type = '', tag = 'Blob') {
    this.#bytes = bytes.slice();
    this.#type = type;
    this.#tag = tag;
  }
  get size() {
    return this.#bytes.byteLength;
  }
  get type() {
    return this.#type;
  }
  get [Symbol.toStringTag]() {
    return this.#tag;
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
  async text() {
    return new TextDecoder().decode(this.#bytes);
  }
}

/** The shape of npm fetch-blob's and formdata-node's: stream() too. */
class StreamingBlob extends OtherBlob {
  readonly #copy: Uint8Array;
  constructor(bytes: Uint8Array, type = '', tag = 'Blob') {
    super(bytes, type, tag);
    this.#copy = bytes.slice();
  }
  stream() {
    const bytes = this.#copy.slice();
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  }
}

describe.each([
  ['main entry', false],
  ['lite entry', true],
])('uploads of a Blob of another implementation (%s)', (_name, lite) => {
  const setup = () => bodyRecordingClient(lite);

  it.each([
    ["jsdom's Blob", OtherBlob, 'Blob'],
    ["jsdom's File", OtherBlob, 'File'],
    ["fetch-blob's Blob", StreamingBlob, 'Blob'],
    ["formdata-node's File", StreamingBlob, 'File'],
  ])('uploadImage and uploadEvidence take %s, read through its own methods', async (_kind, Class, tag) => {
    const { sent, client } = setup();
    const png = samplePng();
    const blob = new Class(png, 'image/png', tag);
    expect(blob instanceof Blob).toBe(false);
    expect(await uploadImage(client, blob as unknown as Blob)).toMatch(/^Image_/);
    expect(await uploadEvidence(client, blob as unknown as Blob)).toMatch(/^Evidence_/);
    // The bytes sent are the Blob's own.
    expect(sent).toEqual([png, png]);
  });

  it('checks its bytes like any upload: not a JPEG or PNG, nothing sent', async () => {
    const { sent, client } = setup();
    const text = new OtherBlob(new TextEncoder().encode('not an image'), 'text/plain');
    await expect(uploadImage(client, text as unknown as Blob)).rejects.toMatchObject({
      code: 'unsupported_image_format',
    });
    expect(sent).toEqual([]);
  });

  it('still refuses what cannot be read as a Blob', async () => {
    const { sent, client } = setup();
    const png = samplePng();
    for (const value of [
      // jsdom's Blob before jsdom/jsdom#4050 (no arrayBuffer(), no stream()): nothing here can read it.
      { [Symbol.toStringTag]: 'Blob', size: png.byteLength, type: 'image/png' },
      { [Symbol.toStringTag]: 'Blob', arrayBuffer: png.buffer },
      { arrayBuffer: async () => png.slice().buffer, size: png.byteLength },
      new Response(png),
    ])
      await expect(uploadImage(client, value as unknown as Blob)).rejects.toMatchObject({
        code: 'invalid_upload',
        message: expect.stringContaining(
          'takes a Uint8Array, ArrayBuffer, Blob, ReadableStream or Node.js stream',
        ),
      });
    expect(sent).toEqual([]);
  });
});
