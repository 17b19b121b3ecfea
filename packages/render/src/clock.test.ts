import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './api.ts';
import { systemClock } from './clock.ts';

describe('systemClock', () => {
  it('sleeps on real timers', async () => {
    const started = Date.now();
    await systemClock.sleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('rejects with the abort reason, at once or while sleeping', async () => {
    const reason = new Error('stop');
    await expect(systemClock.sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('90', 0)).toBe(90_000);
    expect(retryAfterMs('Mon, 16 Nov 2026 09:01:00 GMT', Date.parse('2026-11-16T09:00:00Z'))).toBe(60_000);
    expect(retryAfterMs('Mon, 16 Nov 2026 08:00:00 GMT', Date.parse('2026-11-16T09:00:00Z'))).toBe(0);
    expect(retryAfterMs(null, 0)).toBeUndefined();
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });
});
