import type { PartnerPrintClient } from '@partner-print/client';

/**
 * The part of `@partner-print/client` this package uses, typed from the client itself: `get` and
 * `paginate` (with its repeated-cursor guard) are required, the order and upload helpers optional.
 */
export type MigrateClient = Pick<PartnerPrintClient, 'get' | 'paginate'> &
  Partial<Pick<PartnerPrintClient, 'uploadImage' | 'createOrder' | 'lookupOrderReference'>>;

/** A small counting semaphore (internal: the client's scheduler paces requests, this bounds work in flight). */
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

function field(e: unknown, name: string): unknown {
  return e !== null && typeof e === 'object' ? Reflect.get(e, name) : undefined;
}

export function statusOf(e: unknown): number | undefined {
  const s = field(e, 'status');
  return typeof s === 'number' ? s : undefined;
}

/** A plain summary of an error for reports (`name` is for people to read, never to branch on). */
export function describeError(e: unknown): { name: string; message: string; status?: number; code?: string } {
  const name = field(e, 'name');
  const message = field(e, 'message');
  const code = field(e, 'code');
  const status = statusOf(e);
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(e),
    ...(status !== undefined ? { status } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}
