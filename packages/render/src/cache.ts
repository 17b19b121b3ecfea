/**
 * Where known render references live. Every POST /renders costs rendertokens, even for a composition and
 * image rendered before (the service then answers with the existing reference), so the SDK asks this store
 * first. Any async key-value store fits (Redis, KV, a file, IndexedDB); values are render references.
 *
 * Keys are scoped by composition and image reference only. References are per organization and per
 * environment, so give each organization and environment its own store (or prefix keys in your adapter).
 */
export interface RenderStore {
  get(key: string): Promise<string | null | undefined> | string | null | undefined;
  set(key: string, value: string): Promise<unknown> | unknown;
  /** Optional: forget a render that failed, so the next call renders again instead of failing at once. */
  delete?(key: string): Promise<unknown> | unknown;
  /**
   * Optional, for stores shared by several processes: a lease on `key`, so that one worker of a fleet
   * submits the render and the others wait for the reference it stores. A lease must expire by itself
   * when its worker dies. `RedisRenderStore` (`@partner-print/render/redis`) has one.
   */
  lease?(key: string): Promise<RenderLease>;
}

/**
 * A lease held (release it once the reference is stored), or held elsewhere (look again in `retryMs`).
 * `signal`, optional, is aborted when the holder has lost the lease (it expired, e.g. while the process
 * stalled, and another worker may hold it now): the holder then sends no POST, and records the reference of
 * a POST already sent only where none is known.
 */
export type RenderLease =
  | { acquired: true; release(): Promise<void> | void; signal?: AbortSignal }
  | { acquired: false; retryMs: number };

export type LeasingStore = RenderStore & Required<Pick<RenderStore, 'lease'>>;

export const isLeasing = (store: RenderStore): store is LeasingStore => typeof store.lease === 'function';

/** The default store: a Map in this process. */
export class MemoryRenderStore implements RenderStore {
  readonly #map = new Map<string, string>();

  get(key: string): string | undefined {
    return this.#map.get(key);
  }

  set(key: string, value: string): void {
    this.#map.set(key, value);
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }

  clear(): void {
    this.#map.clear();
  }
}

/** The store key for one (composition, image) pair. */
export function renderCacheKey(compositionReference: string, imageReference: string): string {
  return `render:${compositionReference}:${imageReference}`;
}
