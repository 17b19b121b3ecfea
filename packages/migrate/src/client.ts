/**
 * The part of @partner-print/client this package uses, typed structurally so that any client with
 * the same throwing helpers works (and so tests can pass small fakes).
 */

// biome-ignore lint/suspicious/noExplicitAny: structural over the typed client's path-generic helpers
type AnyAsync = (...args: any[]) => Promise<any>;

export interface MigrateClient {
  /** `client.get(path, { params: { query } })` → data; throws a PartnerPrintError (status 404 → not found). */
  get: AnyAsync;
  post?: AnyAsync;
  uploadImage?: (data: Uint8Array) => Promise<string>;
  createOrder?: AnyAsync;
}

/** A small counting semaphore. */
export function createLimiter(concurrency: number) {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError('concurrency must be a positive integer');
  }
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

export function describeError(e: unknown): { name: string; message: string; status?: number; code?: string } {
  const err = e as { name?: string; message?: string; status?: number; code?: unknown };
  const out: { name: string; message: string; status?: number; code?: string } = {
    name: err?.name ?? 'Error',
    message: err?.message ?? String(e),
  };
  if (typeof err?.status === 'number') out.status = err.status;
  if (typeof err?.code === 'string') out.code = err.code;
  return out;
}

/** Follows `nextCursor` through a list endpoint with `client.get`. */
export async function* listAll<T>(client: MigrateClient, path: string, field: string): AsyncGenerator<T> {
  let cursor: string | null | undefined;
  do {
    const init = cursor ? { params: { query: { cursor } } } : {};
    const page = (await client.get(path, init)) as Record<string, unknown> & { nextCursor?: string | null };
    const items = page?.[field];
    if (!Array.isArray(items)) return;
    yield* items as T[];
    cursor = page.nextCursor;
  } while (cursor);
}
