/**
 * The modules a sample may import in the page, by specifier. `@partner-print/client` is the real client whose
 * `createClient` defaults `fetch` and `clock` to the session's (a sample that passes its own keeps them), and so
 * does `createScheduler` of `@partner-print/ratelimit` (and `renderMockup`, `renderMany` the clock);
 * `node:fs/promises` reads the sample files a sample names (`design.png`, `photo.png`) from memory.
 * Imported by relative path so that the page bundle, the Node tests and the type check all resolve them.
 */

import { samplePng } from '../../../docs/examples/steps/sample-image.ts';
import * as callback from '../../../packages/callback/src/index.ts';
import * as client from '../../../packages/client/src/index.ts';
import * as lite from '../../../packages/client/src/lite.ts';
import * as migrate from '../../../packages/migrate/src/index.ts';
import * as ratelimit from '../../../packages/ratelimit/src/index.ts';
import * as render from '../../../packages/render/src/index.ts';
import type { ModuleFactory } from './session.ts';

let photos = 0;

/**
 * The files `readFile` knows: small PNGs generated in the page. `design.png` is always the same design (the
 * same bytes get the same image reference); `photo.png` is a new photo each time it is read, as evidence of a
 * new claim is (the service refuses evidence already used by another claim).
 */
export const SAMPLE_FILES: Readonly<Record<string, () => Uint8Array<ArrayBuffer>>> = {
  'design.png': () => samplePng(32, 32, 7),
  'photo.png': () => samplePng(32, 32, 1000 + ++photos),
};

/** `photo-1.png`, `photo-2.png`…: photos too, for a sample that uploads several. */
const PHOTO_NAME = /^photo-[\w-]+\.png$/;

function readFile(path: string | URL, options?: unknown): Promise<Uint8Array | string> {
  const name = String(path).split('/').pop() ?? '';
  const make = SAMPLE_FILES[name] ?? (PHOTO_NAME.test(name) ? SAMPLE_FILES['photo.png'] : undefined);
  if (!make) {
    const known = [...Object.keys(SAMPLE_FILES), 'photo-1.png…'].join(', ');
    return Promise.reject(new Error(`ENOENT: ${String(path)} (the page has these files: ${known})`));
  }
  const bytes = make();
  const encoding =
    typeof options === 'string' ? options : (options as { encoding?: string } | undefined)?.encoding;
  return Promise.resolve(encoding ? new TextDecoder().decode(bytes) : bytes);
}

export const createModules: ModuleFactory = ({ fetch, clock }) => {
  const withSession = <O extends { fetch?: unknown; clock?: unknown }>(options: O): O => ({
    fetch,
    clock,
    ...options,
  });
  const fs = { readFile };
  return {
    '@partner-print/client': {
      ...client,
      createClient: (options: client.ClientOptions) => client.createClient(withSession(options)),
    },
    '@partner-print/client/lite': {
      ...lite,
      createClient: (options: lite.LiteClientOptions) => lite.createClient(withSession(options)),
    },
    '@partner-print/callback': callback,
    '@partner-print/migrate': migrate,
    '@partner-print/render': {
      ...render,
      renderMockup: (c: render.RenderClient, options: render.RenderMockupOptions) =>
        render.renderMockup(c, { clock, ...options }),
      renderMany: (
        c: render.RenderClient,
        jobs: render.RenderJob[],
        options: render.RenderManyOptions = {},
      ) => render.renderMany(c, jobs, { clock, ...options }),
    },
    '@partner-print/ratelimit': {
      ...ratelimit,
      createScheduler: (options: ratelimit.SchedulerOptions = {}) =>
        ratelimit.createScheduler(withSession(options)),
    },
    'node:fs/promises': fs,
    'fs/promises': fs,
  };
};
