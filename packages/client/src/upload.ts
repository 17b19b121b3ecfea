import type { Reference } from '@partner-print/openapi';
import { sniffImageType } from '@partner-print/openapi/wire';
import { coreOf, type RequestOptions } from './core.ts';
import { PartnerPrintError, ValidationError } from './errors.ts';
import { checkInit, HELPER_KEYS, readableInit } from './options.ts';
import { type CallContext, describeCall, fieldOf, isAsyncIterable, streamFrom } from './response.ts';
import { abortOf } from './transport.ts';
import type { PartnerPrintBaseClient, UploadData } from './types.ts';

export type { UploadData } from './types.ts';

/** What an upload's errors carry: the call's method and path, its name as the operation. */
type ErrorFields = CallContext & { operation: string };

const tagOf = (data: unknown) => Object.prototype.toString.call(data);

// An ArrayBuffer of another realm (a Jest test's: Node's own fetch and fs answer with the outer realm's) by its
// tag, which `instanceof` misses; a Uint8Array is a view (ArrayBuffer.isView), from this realm or another.
const isArrayBuffer = (data: unknown): data is ArrayBuffer => tagOf(data) === '[object ArrayBuffer]';

// A Blob or File by its tag and its arrayBuffer(), as the platform's so another implementation's (jsdom's in a
// Jest suite, npm fetch-blob's or formdata-node's), which `instanceof` misses: read through its own method.
const isBlob = (data: unknown): data is Blob =>
  /^\[object (Blob|File)]$/.test(tagOf(data)) && typeof (data as Blob).arrayBuffer === 'function';

const isUploadData = (data: unknown): data is UploadData =>
  isArrayBuffer(data) ||
  ArrayBuffer.isView(data) ||
  isBlob(data) ||
  data instanceof ReadableStream ||
  isAsyncIterable(data);

const isBytes = (chunk: unknown): chunk is Uint8Array =>
  chunk instanceof Uint8Array || tagOf(chunk) === '[object Uint8Array]';

async function bytesOf(data: UploadData, fields: ErrorFields, signal?: AbortSignal): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  if (isArrayBuffer(data)) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  if (isBlob(data)) return new Uint8Array(await data.arrayBuffer());
  // A Node.js stream (fs.createReadStream, a request body) or any async iterable of byte chunks as a web stream.
  const stream = data instanceof ReadableStream ? data : streamFrom(data);
  // A stream is read through a pipe the caller's signal cancels: a source that stalls would otherwise hold the
  // call past any abort.
  const reader = (signal ? stream.pipeThrough(new TransformStream(), { signal }) : stream).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    // A source that fails midway (a file that cannot be read, a generator that throws) rejects with its own
    // error, as it is (upload-iterable.test.ts); the caller's abort is mapped by the caller.
    const next = await reader.read();
    if (next.done) break;
    const chunk = next.value;
    if (!isBytes(chunk)) {
      const error = new ValidationError(
        `${fields.operation}: the upload's source gave a chunk that is not a Uint8Array (${tagOf(chunk)}); nothing was sent`,
        { ...fields, code: 'invalid_upload' },
      );
      // The source closed (a generator's finally run, a Node stream destroyed): the read stops here.
      await reader.cancel(error).catch(() => {});
      throw error;
    }
    chunks.push(chunk);
    length += chunk.byteLength;
  }
  // A copy, as one: the caller's chunks may be views of a pool or be reused.
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The upload as one byte array, checked to be a JPEG or PNG before anything is sent. Streams are read
 * to the end: the signature must be checked first, and a retried upload must send the same bytes again.
 */
export async function imageBytes(
  data: unknown,
  call: CallContext,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  // The call's method and path, and its name as the operation (operationId, or `POST /images` without one).
  const operation = describeCall(call);
  const fields: ErrorFields = { ...call, operation };
  if (!isUploadData(data))
    throw new ValidationError(
      `${operation} takes a Uint8Array, ArrayBuffer, Blob, ReadableStream or Node.js stream`,
      { ...fields, code: 'invalid_upload' },
    );
  const bytes = await bytesOf(data, fields, signal);
  if (!sniffImageType(bytes))
    throw new ValidationError(`${operation} takes JPEG or PNG only; nothing was sent`, {
      ...fields,
      code: 'unsupported_image_format',
    });
  return bytes;
}

const upload = async <P extends 'Image' | 'Evidence'>(
  client: PartnerPrintBaseClient,
  prefix: P,
  data: UploadData,
  init?: RequestOptions,
): Promise<Reference<P>> => {
  const template = prefix === 'Image' ? '/images' : '/evidence';
  const { call, context } = coreOf(client);
  const ctx = context('POST', template);
  const name = describeCall(ctx);
  init = readableInit(init);
  checkInit(init, name, HELPER_KEYS);
  const signal = init?.signal;
  const bytes = await imageBytes(data, ctx, signal).catch((reason: unknown) => {
    throw signal?.aborted ? abortOf(signal.reason, ctx) : reason;
  });
  const body = await call('POST', template, {
    ...init,
    body: bytes,
    bodySerializer: (bytes: Uint8Array) => bytes,
    // Merged by openapi-fetch over the caller's headers, in whatever form they come (a spread of a Headers is empty).
    params: { header: { 'Content-Type': 'application/octet-stream' } },
  });
  const reference = fieldOf(fieldOf(body, prefix.toLowerCase()), 'reference');
  if (!isReferenceOf(prefix, reference))
    throw new PartnerPrintError(`${name}: the answer holds no ${prefix}_ reference`, {
      code: 'unexpected_response',
    });
  return reference;
};

// Only the prefix is checked: the reference says nothing certain of the characters after it.
const isReferenceOf = <P extends string>(prefix: P, value: unknown): value is `${P}_${string}` =>
  typeof value === 'string' && value.startsWith(`${prefix}_`);

/** Uploads a JPEG or PNG print image (checked before sending, as `application/octet-stream`) and returns its `Image_…` reference. */
export const uploadImage = (
  client: PartnerPrintBaseClient,
  data: UploadData,
  init?: RequestOptions,
): Promise<Reference<'Image'>> => upload(client, 'Image', data, init);

/** Uploads a JPEG or PNG evidence photo (checked before sending) and returns its `Evidence_…` reference. */
export const uploadEvidence = (
  client: PartnerPrintBaseClient,
  data: UploadData,
  init?: RequestOptions,
): Promise<Reference<'Evidence'>> => upload(client, 'Evidence', data, init);
