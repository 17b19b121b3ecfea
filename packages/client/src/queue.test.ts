import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Deadlines } from './deadline.ts';
import { queueThrough } from './queue.ts';
import type { Call, Timing } from './transport.ts';

describe('queueThrough', () => {
  it('keeps no request alive from the timing it found it by (a WeakMap value a young collection keeps whole)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const limiter = queueThrough(
      {
        deadlines: new Deadlines<Call>(),
        transport: () => Promise.resolve(new Response('ok')),
        timeout: () => new Error('timed out'),
        emit: undefined,
        timeoutMs: 60_000,
      },
      // A queue that sends the request after its call has returned, as one queued behind others does.
      (timed) => (request) => Promise.resolve().then(() => timed(request)),
    );
    const timing: Timing = { start: 0, sentAt: undefined, ms: undefined, unabortable: true };
    let sent!: WeakRef<Request>;
    await (async () => {
      const req = new Request('http://127.0.0.1/1');
      sent = new WeakRef(req);
      const response = await limiter.send?.(req, timing, 60_000, true);
      expect(await response?.text()).toBe('ok');
    })();
    // Found by its request when the queue sent it.
    expect(timing.sentAt).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0)); // a WeakRef's target is kept until the job ends
    // `timing` held, as a young collection holds the value of a WeakMap entry whose key is young (its
    // entry goes only once its key is found dead, which a value holding that key prevents until a full GC).
    gc();
    expect(sent.deref()).toBeUndefined();
  });
});
