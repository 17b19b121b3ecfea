// A rate-limit queue the client sends through (the scheduler the main entry makes): each attempt's deadline
// starts when the queue sends it, and its events tell the wait apart from the network time. Only the main entry
// imports this: a bundle without a queue of the client's (the lite entry) holds none of it.
import type { Attempt, Fetch } from './deadline.ts';
import type { Call, Limiter, QueueKit, Timing } from './transport.ts';

/**
 * The limiter of a queue made by `make`, given the client's transport with each attempt's deadline (`timed`):
 * the queue's `fetch` is what it sends an attempt with.
 */
export function queueThrough(
  { deadlines, transport, timeout, emit, timeoutMs }: QueueKit,
  make: (timed: Fetch) => Limiter['fetch'],
): Limiter {
  // Attempts the queue sends through `timed` find their timing and deadline here: the one it sends within its
  // own call (nothing queued ahead) in `handing` (with its request, `handed`), one it queues in `pending` (a
  // WeakMap entry per request costs more than the rest of this layer). No timing holds its request: a young
  // collection keeps a WeakMap's values whole and drops an entry only once its key is dead, so a value
  // holding its key kept every queued request (and what it holds) alive through young collections until
  // a full one.
  const pending = new WeakMap<Request, Timing>();
  let handed: Request | undefined;
  let handing: Timing | undefined;
  const direct = (r: Request, a: Attempt<Call>) => transport(r, a);
  const timed: Fetch = (req, init) => {
    const t = handed === req ? handing : pending.get(req);
    // The time is read for the events only; without them `sentAt` still marks the attempt as sent.
    if (t) t.sentAt = emit ? performance.now() : 0;
    const ms = t?.ms ?? timeoutMs;
    return deadlines.run(init ? (r) => transport(r, init) : direct, req, ms, timeout, t?.unabortable);
  };
  const fetch = make(timed);
  return {
    fetch,
    send: (req, timing, ms, unabortable, call) => {
      timing.ms = ms;
      const outer = handing;
      const outerReq = handed;
      handing = timing;
      handed = req;
      try {
        return fetch(req, unabortable, call);
      } catch (error) {
        // A limiter that throws instead of rejecting: a failed attempt like any other.
        return Promise.reject(error);
      } finally {
        handing = outer;
        handed = outerReq;
        // Not sent within the call (`timed` sets `sentAt`): it waits in the limiter's queue. The client asks
        // the limiter for no retries of its own, so each attempt is sent once.
        if (timing.sentAt === undefined) pending.set(req, timing);
      }
    },
  };
}
