// What an order worker process needs besides the client (test/orders-worker.ts), kept apart from the
// sandbox's faults so that each of the fleet's processes starts without loading the sandbox.
import { isReference, type Reference, type ReferencePrefix } from '@partner-print/openapi';

/** A seeded reference, typed (the sandbox's seed holds plain strings). */
export function ref<P extends ReferencePrefix>(prefix: P, value: string | undefined): Reference<P> {
  if (!isReference(prefix, value)) throw new TypeError(`not a ${prefix} reference: ${value}`);
  return value;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing run can be repeated. */
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` tasks, `concurrency` at a time; each result or error in its slot. */
export async function pool<T>(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<Array<{ value: T } | { error: unknown }>> {
  const results: Array<{ value: T } | { error: unknown }> = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
      }
    }),
  );
  return results;
}
