import type { Reference } from '@partner-print/openapi/wire';
import { createRenderApi, type RenderApi, type RenderClient } from './api.ts';
import { MemoryRenderStore } from './cache.ts';
import { TtlCache } from './catalog.ts';
import { RenderTimeoutError } from './errors.ts';
import type { RenderProgressEvent } from './events.ts';
import { SharedTasks } from './shared.ts';
import type { Render, RenderFile } from './types.ts';

export interface Acquired {
  reference: Reference<'Render'>;
  cached: boolean;
  spent: number;
}

export interface Completed {
  render: Render;
  media: RenderFile;
  thumbnail: RenderFile;
}

export interface ClientState {
  api: RenderApi;
  catalog: TtlCache;
  images: TtlCache;
  store: MemoryRenderStore;
  acquisitions: SharedTasks<Acquired, RenderProgressEvent>;
  completions: SharedTasks<Completed, RenderProgressEvent>;
  /** When each unfinished render may be polled next: a loop that starts after an abandoned one waits for it. */
  nextPolls: Map<string, number>;
  /** Errors of GET /renders/{ref} that said 404: the service does not know the render. */
  unknownRenders: WeakSet<object>;
  /** Render references paid for whose store write has not settled, by store key: later calls take them from here. */
  writes: Map<string, Reference<'Render'>>;
  /** The upload of each image given as a stream, which can be read once: every job and call given it shares it. */
  streams: WeakMap<object, Promise<Reference<'Image'>>>;
}

// Two copies of this package in one program (two versions side by side, a library's bundle) given one client
// share its state: each had its own in-flight renders and default store, and both paid for the same render. On
// the global object, under the state's format: change the number whenever ClientState or its members' methods do.
const REGISTRY = Symbol.for('partner-print.render.state.2');
const shared = globalThis as { [REGISTRY]?: WeakMap<object, ClientState> };

const pollTimeout = (deadline: number, renderReference: string) =>
  new RenderTimeoutError(
    `timeoutMs passed (at ${new Date(deadline).toISOString()}) while render ${renderReference} was still in progress (or its files downloading). ` +
      'It goes on in the service: call renderMockup again to pick it up without paying again.',
    renderReference,
  );
const submitTimeout = (deadline: number) =>
  new RenderTimeoutError(
    `timeoutMs passed (at ${new Date(deadline).toISOString()}) before the render was created. ` +
      'A POST /renders already sent goes on and its render is stored: calling renderMockup again picks it up without paying again.',
  );

/** Per-client state: the render store default, catalog cache and in-flight tasks are never shared across keys. */
export function stateOf(client: RenderClient): ClientState {
  shared[REGISTRY] ??= new WeakMap();
  const states = shared[REGISTRY];
  let state = states.get(client);
  if (!state) {
    state = {
      api: createRenderApi(client),
      catalog: new TtlCache(),
      images: new TtlCache(),
      store: new MemoryRenderStore(),
      // Spending tokens: a POST once sent finishes and lands in the store even if every caller left.
      acquisitions: new SharedTasks(submitTimeout, false),
      // Polling: stops when nobody waits any more.
      completions: new SharedTasks(pollTimeout, true),
      nextPolls: new Map(),
      unknownRenders: new WeakSet(),
      writes: new Map(),
      streams: new WeakMap(),
    };
    states.set(client, state);
  }
  return state;
}
