import type { PartnerPrintClient } from '@partner-print/client';
import { PartnerPrintError } from '@partner-print/client/errors';
import type { Reference } from '@partner-print/openapi/wire';
import type { ReferenceQuery } from './errors.ts';
import type { Composition, Perspective, Render, Rendertokens, Scene } from './types.ts';

/** The client methods this package calls: any `PartnerPrintClient` has them. */
export type RenderClient = Pick<PartnerPrintClient, 'get' | 'post' | 'paginate' | 'uploadImage' | 'download'>;

export type FileKind = 'media' | 'thumbnail';

/**
 * Every request the render flow makes, in one place. The client's throwing helpers give the one error
 * hierarchy (NotFoundError, GoneError, RendertokenLimitError…); responses are read defensively where the
 * reference leaves fields open.
 */
export interface RenderApi {
  lookupComposition(query: ReferenceQuery, signal?: AbortSignal): Promise<Composition>;
  getScene(sceneReference: Reference<'Scene'>, signal?: AbortSignal): Promise<Scene>;
  getPerspective(perspectiveReference: Reference<'Perspective'>, signal?: AbortSignal): Promise<Perspective>;
  /** Walks GET /products until `stop` returns true for a product; every product seen is passed to `seen`. */
  scanProducts(seen: (product: Record<string, unknown>) => boolean, signal?: AbortSignal): Promise<void>;
  getRendertokens(signal?: AbortSignal): Promise<Rendertokens>;
  createRender(body: {
    compositionReference: Reference<'Composition'>;
    imageReference: Reference<'Image'>;
  }): Promise<Reference<'Render'>>;
  /** The render and the response's raw `Retry-After` and `Date` headers (null when absent). */
  getRender(
    renderReference: Reference<'Render'>,
    signal?: AbortSignal,
  ): Promise<{ render: Render; retryAfter: string | null; date: string | null }>;
  /** One try: the file, or `pending` with the 202's `Retry-After` (seconds; the client's default when absent). */
  download(
    renderReference: Reference<'Render'>,
    kind: FileKind,
    signal?: AbortSignal,
  ): Promise<
    | { pending: false; bytes: Uint8Array; contentType: string | null }
    | { pending: true; retryAfterSeconds: number }
  >;
  uploadImage(
    data: Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<Reference<'Image'>>;
}

function unwrap<T>(value: T | null | undefined, what: string): T {
  if (!value || typeof value !== 'object')
    throw new PartnerPrintError(`${what} returned no object`, { code: 'unexpected_response' });
  return value;
}

export function createRenderApi(client: RenderClient): RenderApi {
  return {
    async lookupComposition(query, signal) {
      const data = await client.get('/lookup-composition', { params: { query }, signal });
      return unwrap(data.composition, 'GET /lookup-composition');
    },
    async getScene(sceneReference, signal) {
      const data = await client.get('/scenes/{sceneReference}', {
        params: { path: { sceneReference } },
        signal,
      });
      return unwrap(data.scene, 'GET /scenes/{sceneReference}');
    },
    async getPerspective(perspectiveReference, signal) {
      const data = await client.get('/perspectives/{perspectiveReference}', {
        params: { path: { perspectiveReference } },
        signal,
      });
      return unwrap(data.perspective, 'GET /perspectives/{perspectiveReference}');
    },
    async scanProducts(seen, signal) {
      for await (const product of client.paginate('/products', { signal })) {
        if (product && typeof product === 'object' && seen(product)) return;
      }
    },
    async getRendertokens(signal) {
      const data = await client.get('/rendertokens', { signal });
      return unwrap(data.rendertokens, 'GET /rendertokens');
    },
    async createRender(body) {
      // No signal: once sent, the POST is allowed to finish so its reference is never lost.
      const data = await client.post('/renders', { body: { render: body } });
      return unwrap(data.render, 'POST /renders').reference;
    },
    async getRender(renderReference, signal) {
      let retryAfter: string | null = null;
      let date: string | null = null;
      const data = await client.get('/renders/{renderReference}', {
        params: { path: { renderReference } },
        signal,
        middleware: [
          {
            onResponse({ response }) {
              retryAfter = response.headers.get('retry-after');
              date = response.headers.get('date');
            },
          },
        ],
      });
      return { render: unwrap(data.render, 'GET /renders/{renderReference}'), retryAfter, date };
    },
    async download(renderReference, kind, signal) {
      const init = { params: { path: { renderReference } }, signal };
      // No waiting inside the client: the render's own loop waits out a 202, within the caller's deadline.
      const result = await client.download(`/renders/{renderReference}/${kind}`, init, {
        as: 'bytes',
        wait: false,
      });
      if (result.pending) return { pending: true, retryAfterSeconds: result.retryAfter };
      return { pending: false, bytes: result.data, contentType: result.contentType ?? null };
    },
    uploadImage(data, signal) {
      return client.uploadImage(data, signal ? { signal } : undefined);
    },
  };
}
