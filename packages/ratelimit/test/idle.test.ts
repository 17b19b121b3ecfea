import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerScript } from '../../../test-utils/worker-script.ts';
import { createScheduler } from '../src/index.ts';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('idle', () => {
  it('holds one timer while a request waits and none once the queue is empty (abort)', async () => {
    const fetch = async (): Promise<Response> =>
      new Response('{}', {
        headers: { 'x-ratelimit-policy': '"default";q=1;w=60', 'x-ratelimit': '"default";r=0;t=60' },
      });
    const scheduler = createScheduler({ fetch, key: 'idle' });
    await scheduler.fetch('https://api.example/v2/orders');
    const controllers = Array.from({ length: 3 }, () => new AbortController());
    const waiting = controllers.map((c) =>
      scheduler.fetch('https://api.example/v2/orders', { signal: c.signal }).catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(scheduler.stats().queued).toBe(3);
    // One timer for three waiting requests.
    const during = timers();
    expect(during).toBeGreaterThanOrEqual(1);
    for (const c of controllers) c.abort(new Error('gone'));
    expect(await Promise.all(waiting)).toEqual([new Error('gone'), new Error('gone'), new Error('gone')]);
    expect(scheduler.stats().queued).toBe(0);
    expect(timers()).toBe(during - 1);
  });

  it('lets a process exit by itself after a throttled run (child process)', async () => {
    const script = workerScript(new URL('./fixtures/idle-exit.ts', import.meta.url));
    const started = Date.now();
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [script], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const kill = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the process did not exit by itself: ${out}`));
      }, 20_000);
      child.once('exit', (exitCode) => {
        clearTimeout(kill);
        resolve({ code: exitCode, stdout: out });
      });
    });
    expect(code).toBe(0);
    const report = JSON.parse(stdout.trim()) as {
      statuses: number[];
      stats: { throttled: number };
      timers: number;
    };
    expect(report.statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    expect(report.stats.throttled).toBe(1);
    expect(report.timers).toBe(0);
    // It waited for Retry-After (1 s) and then ended at once.
    expect(Date.now() - started).toBeLessThan(19_000);
  }, 30_000);
});
