import type { PartnerPrintClient } from '@partner-print/client';
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
  lookupComposition(
    query: { sceneReference: string; productReference: string; perspectiveReference: string },
    signal?: AbortSignal,
  ): Promise<Composition>;
  getScene(sceneReference: string, signal?: AbortSignal): Promise<Scene>;
  getPerspective(perspectiveReference: string, signal?: AbortSignal): Promise<Perspective>;
  /** Walks GET /products until `stop` returns true for a product; every product seen is passed to `seen`. */
  scanProducts(seen: (product: Record<string, unknown>) => boolean, signal?: AbortSignal): Promise<void>;
  getRendertokens(signal?: AbortSignal): Promise<Rendertokens>;
  createRender(body: { compositionReference: string; imageReference: string }): Promise<string>;
  /** The render and the response's raw `Retry-After` header (null when absent). */
  getRender(
    renderReference: string,
    signal?: AbortSignal,
  ): Promise<{ render: Render; retryAfter: string | null }>;
  download(
    renderReference: string,
    kind: FileKind,
    signal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; contentType: string | null }>;
  uploadImage(
    data: Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<string>;
}

function unwrap<T>(data: unknown, field: string, what: string): T {
  const value = (data as Record<string, unknown> | undefined)?.[field];
  if (!value || typeof value !== 'object') throw new TypeError(`${what} returned no "${field}" object`);
  return value as T;
}

/** `Retry-After` as delta-seconds or an HTTP date, in milliseconds from `now`. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function createRenderApi(client: RenderClient): RenderApi {
  // The helpers are typed by the spec's paths; this adapter passes the shapes the spec defines.
  // biome-ignore lint/suspicious/noExplicitAny: one boundary cast instead of one per call
  const c = client as any;
  return {
    async lookupComposition(query, signal) {
      const data = await c.get('/lookup-composition', { params: { query }, signal });
      return unwrap<Composition>(data, 'composition', 'GET /lookup-composition');
    },
    async getScene(sceneReference, signal) {
      const data = await c.get('/scenes/{sceneReference}', { params: { path: { sceneReference } }, signal });
      return unwrap<Scene>(data, 'scene', 'GET /scenes/{sceneReference}');
    },
    async getPerspective(perspectiveReference, signal) {
      const data = await c.get('/perspectives/{perspectiveReference}', {
        params: { path: { perspectiveReference } },
        signal,
      });
      return unwrap<Perspective>(data, 'perspective', 'GET /perspectives/{perspectiveReference}');
    },
    async scanProducts(seen, signal) {
      for await (const product of c.paginate('/products', { signal })) {
        if (product && typeof product === 'object' && seen(product as Record<string, unknown>)) return;
      }
    },
    async getRendertokens(signal) {
      const data = await c.get('/rendertokens', { signal });
      return unwrap<Rendertokens>(data, 'rendertokens', 'GET /rendertokens');
    },
    async createRender(body) {
      // No signal: once sent, the POST is allowed to finish so its reference is never lost.
      const data = await c.post('/renders', { body: { render: body } });
      const reference = unwrap<{ reference?: unknown }>(data, 'render', 'POST /renders').reference;
      if (typeof reference !== 'string') throw new TypeError('POST /renders returned no render reference');
      return reference;
    },
    async getRender(renderReference, signal) {
      let retryAfter: string | null = null;
      const data = await c.get('/renders/{renderReference}', {
        params: { path: { renderReference } },
        signal,
        middleware: [
          {
            onResponse({ response }: { response: Response }) {
              retryAfter = response.headers.get('retry-after');
            },
          },
        ],
      });
      return { render: unwrap<Render>(data, 'render', 'GET /renders/{renderReference}'), retryAfter };
    },
    async download(renderReference, kind, signal) {
      const result = await c.download(
        `/renders/{renderReference}/${kind}`,
        { params: { path: { renderReference } }, signal },
        { as: 'bytes', wait: true },
      );
      return { bytes: result.data as Uint8Array, contentType: (result.contentType as string | null) ?? null };
    },
    uploadImage(data, signal) {
      return client.uploadImage(data, signal ? { signal } : undefined);
    },
  };
}
