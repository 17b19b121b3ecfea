import { systemClock } from '@partner-print/openapi/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { unhandledDuring } from '../../../../test-utils/unhandled.ts';
import { type RedisAvailabilityEvent, type RedisScriptClient, ScriptRunner } from './script-runner.ts';

/** A client whose EVALSHA calls wait until the test answers or fails them. */
function heldClient() {
  const calls: Array<{ resolve(value: unknown): void; reject(error: unknown): void }> = [];
  const client: RedisScriptClient = {
    scriptLoad: async () => 'sha',
    eval: async () => 'eval',
    evalSha: () =>
      new Promise((resolve, reject) => {
        calls.push({ resolve, reject });
      }),
  };
  return { client, calls };
}

const settleTicks = () => new Promise((resolve) => setTimeout(resolve, 20));

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('ScriptRunner', () => {
  it('keeps hundreds of commands in flight without a MaxListenersExceededWarning', async () => {
    process.on('warning', onWarning);
    const { client, calls } = heldClient();
    const runner = new ScriptRunner(client, {
      clock: systemClock,
      commandTimeoutMs: 60_000,
      retryMs: 1_000,
      onEvent: undefined,
    });
    const replies = Array.from({ length: 300 }, (_, i) => runner.run('return 1', [`k${i}`], []));
    await settleTicks();
    expect(calls).toHaveLength(300);
    for (const call of calls) call.resolve(1);
    expect(await Promise.all(replies)).toEqual(replies.map(() => 1));
    await settleTicks();
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('fails every waiting command at once at a fault, and emits one redis-unavailable', async () => {
    const { client, calls } = heldClient();
    const events: RedisAvailabilityEvent[] = [];
    const runner = new ScriptRunner(client, {
      clock: systemClock,
      commandTimeoutMs: 60_000,
      retryMs: 1_000,
      onEvent: (event) => events.push(event),
    });
    const waiting = Array.from({ length: 30 }, () => runner.run('return 1', ['k'], []));
    const failing = runner.run('return 1', ['k'], []);
    await settleTicks();
    const reset = new Error('read ECONNRESET');
    calls[30]?.reject(reset);
    await expect(failing).rejects.toBe(reset);
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.map((o) => (o.status === 'rejected' ? o.reason : o.value))).toEqual(
      waiting.map(() => reset),
    );
    expect(events).toEqual([{ type: 'redis-unavailable', reason: 'read ECONNRESET' }]);
    expect(runner.available).toBe(false);
  });

  it('leaves commands that start after a fault to their own deadline and answer', async () => {
    const { client, calls } = heldClient();
    const events: RedisAvailabilityEvent[] = [];
    const runner = new ScriptRunner(client, {
      clock: systemClock,
      commandTimeoutMs: 60_000,
      retryMs: 0,
      onEvent: (event) => events.push(event),
    });
    const first = runner.run('return 1', ['k'], []);
    await settleTicks();
    calls[0]?.reject(new Error('down'));
    await expect(first).rejects.toThrow('down');
    const later = runner.run('return 1', ['k'], []);
    await settleTicks();
    calls[1]?.resolve(7);
    expect(await later).toBe(7);
    expect(events.map((e) => e.type)).toEqual(['redis-unavailable', 'redis-recovered']);
  });

  it('keeps an onEvent that rejects (an async listener) from going unhandled', async () => {
    // An unhandled rejection ends a Node.js process by default: the fleet would go down with its listener.
    let heard = 0;
    const unhandled = await unhandledDuring(async () => {
      const { client, calls } = heldClient();
      const runner = new ScriptRunner(client, {
        clock: systemClock,
        commandTimeoutMs: 60_000,
        retryMs: 1_000,
        onEvent: async () => {
          heard++;
          throw new Error('listener down');
        },
      });
      const failing = runner.run('return 1', ['k'], []);
      await settleTicks();
      calls[0]?.reject(new Error('read ECONNRESET'));
      await expect(failing).rejects.toThrow();
    });
    expect(heard).toBe(1);
    expect(unhandled).toEqual([]);
  });
});
