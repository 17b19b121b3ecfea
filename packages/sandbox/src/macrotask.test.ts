import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextMacrotask } from './macrotask.ts';

/** MessageChannel, counting the channels opened and those still open. */
function countChannels() {
  const counts = { opened: 0, open: 0 };
  class Counted extends MessageChannel {
    constructor() {
      super();
      counts.opened++;
      counts.open++;
      const close = this.port1.close.bind(this.port1);
      this.port1.close = () => {
        counts.open--;
        close();
      };
    }
  }
  vi.stubGlobal('MessageChannel', Counted);
  return counts;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('nextMacrotask', () => {
  it('settles after the microtasks queued before it', async () => {
    const order: string[] = [];
    const yielded = nextMacrotask().then(() => order.push('macrotask'));
    void Promise.resolve()
      .then(() => order.push('microtask 1'))
      .then(() => order.push('microtask 2'));
    await yielded;
    expect(order).toEqual(['microtask 1', 'microtask 2', 'macrotask']);
  });

  // An open port keeps Deno alive even without a listener: a virtual clock at rest must leave none open.
  it('closes its channel once no yield is pending; a loop of yields keeps one channel', async () => {
    const counts = countChannels();
    for (let i = 0; i < 100; i++) await nextMacrotask();
    await Promise.resolve();
    expect(counts).toEqual({ opened: 1, open: 0 });
    await Promise.all([nextMacrotask(), nextMacrotask()]);
    await Promise.resolve();
    expect(counts).toEqual({ opened: 2, open: 0 });
  });

  it('falls back to setTimeout where there is no MessageChannel', async () => {
    vi.stubGlobal('MessageChannel', undefined);
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    await nextMacrotask();
    expect(timeout).toHaveBeenCalledWith(expect.any(Function), 0);
    timeout.mockRestore();
  });
});
