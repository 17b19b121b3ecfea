import { type ClientOptions, createClient } from '@partner-print/client';
import { createSandbox, type SandboxOptions } from '@partner-print/sandbox';
import { rgbaToDataURL } from 'thumbhash';
import type { LeasingStore, RenderStore } from '../src/cache.ts';

/** A real PNG (stored zlib blocks) of a small gradient, different per `variant`. */
export function pngBytes(variant = 0, w = 16, h = 12): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++)
    rgba.set([(i * 7 + variant) & 255, (i * 3) & 255, variant & 255, 255], i * 4);
  const url = rgbaToDataURL(w, h, rgba);
  return Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
}

export interface Setup {
  sandbox: ReturnType<typeof createSandbox>;
  client: ReturnType<typeof createClient>;
  /** `METHOD /path` of every request the client sent, without the /v2 prefix. */
  requests: string[];
  count(prefix: string): number;
}

/**
 * A sandbox with rate limits off, and a client on its virtual clock whose requests are counted.
 * `intercept` may answer a request instead of the sandbox (e.g. a 202 the sandbox would not send);
 * `clientOptions`, the client's own timeout and retries.
 */
export function setup(
  options: SandboxOptions = {},
  intercept?: (
    request: Request,
    sandbox: ReturnType<typeof createSandbox>,
  ) => Response | Promise<Response> | undefined,
  clientOptions: Pick<ClientOptions, 'timeoutMs' | 'retry'> = {},
): Setup {
  const sandbox = createSandbox({ rateLimits: false, jitter: 0, ...options });
  const requests: string[] = [];
  const client = createClient({
    ...clientOptions,
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    clock: sandbox.clock,
    fetch: (request: Request) => {
      const path = new URL(request.url).pathname.replace(/^\/v2/, '');
      requests.push(`${request.method} ${path}`);
      return Promise.resolve(intercept?.(request, sandbox) ?? sandbox.fetch(request));
    },
  });
  return {
    sandbox,
    client,
    requests,
    count: (prefix) => requests.filter((r) => r.startsWith(prefix)).length,
  };
}

type Seed = ReturnType<typeof createSandbox>['seed'];

/** The seeded studio print: its composition costs 1 token. */
export const studioPrint = (seed: Seed) => ({
  sceneReference: seed.scenes.studio,
  productReference: seed.products.print,
  perspectiveReference: seed.perspectives.studioFront,
});

/** The seeded lifestyle poster: its composition costs 5 tokens. */
export const lifestylePoster = (seed: Seed) => ({
  sceneReference: seed.scenes.lifestyle,
  productReference: seed.products.poster,
  perspectiveReference: seed.perspectives.lifestyleWide,
});

/** `inner` with its `lease` replaced by `lease`: reads, writes and deletes go to `inner` as they are. */
export const withLease = (inner: Required<RenderStore>, lease: LeasingStore['lease']): RenderStore => ({
  get: (key) => inner.get(key),
  set: (key, value) => inner.set(key, value),
  delete: (key) => inner.delete(key),
  lease,
});
