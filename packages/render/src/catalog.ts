/**
 * Catalog reads (composition lookups, scenes, perspectives, productgroups) change rarely, and ten renders
 * of one composition need them once. Entries live `ttlMs` on the caller's clock; a failed load is not kept,
 * and concurrent loads of one key share one request.
 */
export class TtlCache {
  readonly #entries = new Map<string, { promise: Promise<unknown>; expires: number }>();

  load<T>(key: string, now: number, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) return hit.promise as Promise<T>;
    const promise = load();
    this.#entries.set(key, { promise, expires: now + ttlMs });
    promise.catch(() => {
      if (this.#entries.get(key)?.promise === promise) this.#entries.delete(key);
    });
    return promise;
  }

  /** Stores a value learnt on the way (e.g. other products seen while paging for one). */
  put(key: string, now: number, ttlMs: number, value: unknown): void {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) return;
    this.#entries.set(key, { promise: Promise.resolve(value), expires: now + ttlMs });
  }
}

/**
 * The productgroup reference a product links to. The reference documents "a link to a productgroup"
 * without naming the field, so the likely shapes are all accepted; `undefined` when none is present.
 */
export function productgroupOf(product: Record<string, unknown>): string | undefined {
  const candidates = [
    product.productgroup,
    product.productgroupReference,
    product.productGroup,
    product.productGroupReference,
  ];
  for (const candidate of candidates) {
    const reference = referenceOf(candidate);
    if (reference) return reference;
  }
  return undefined;
}

/** A reference out of a `{ reference }` link or a bare string; undefined for anything else. */
export function referenceOf(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  const reference = (entry as { reference?: unknown } | null | undefined)?.reference;
  return typeof reference === 'string' ? reference : undefined;
}
