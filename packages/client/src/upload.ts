import type { Reference } from '@partner-print/openapi';
import { sniffImageType } from '@partner-print/openapi/wire';
import { coreOf, type RequestOptions } from './core.ts';
import { PartnerPrintError, ValidationError } from './errors.ts';
import { checkInit, HELPER_KEYS, readableInit } from './options.ts';
import { describeCall, fieldOf, isAsyncIterable, streamFrom } from './response.ts';
import { abortOf } from './transport.ts';
import type { PartnerPrintBaseClient, UploadData } from './types.ts';

export type { UploadData } from './types.ts';

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

async function bytesOf(data: UploadData, signal?: AbortSignal): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  if (isArrayBuffer(data)) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  if (isBlob(data)) return new Uint8Array(await data.arrayBuffer());
  // A Node.js stream (fs.createReadStream, a request body) or any async iterable of byte chunks as a web stream.
  const stream = data instanceof ReadableStream ? data : streamFrom(data);
  // A stream is read through a pipe the caller's signal cancels: a source that stalls would otherwise hold the
  // call past any abort.
  return new Uint8Array(
    await new Response(signal ? stream.pipeThrough(new TransformStream(), { signal }) : stream).arrayBuffer(),
  );
}

/**
 * The upload as one byte array, checked to be a JPEG or PNG before anything is sent. Streams are read
 * to the end: the signature must be checked first, and a retried upload must send the same bytes again.
 */
export async function imageBytes(
  data: unknown,
  operation: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if (!isUploadData(data))
    throw new ValidationError(
      `${operation} takes a Uint8Array, ArrayBuffer, Blob, ReadableStream or Node.js stream`,
      {
        code: 'invalid_upload',
        operation,
      },
    );
  const bytes = await bytesOf(data, signal);
  if (!sniffImageType(bytes))
    throw new ValidationError(`${operation} takes JPEG or PNG only; nothing was sent`, {
      code: 'unsupported_image_format',
      operation,
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
  const name = describeCall(context('POST', template));
  init = readableInit(init);
  checkInit(init, name, HELPER_KEYS);
  const signal = init?.signal;
  const bytes = await imageBytes(data, name, signal).catch((reason: unknown) => {
    throw signal?.aborted ? abortOf(signal.reason, context('POST', template)) : reason;
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
