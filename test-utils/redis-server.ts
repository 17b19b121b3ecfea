/**
 * Starts a throwaway `redis-server` on 127.0.0.1 (a free port, no persistence) for tests and the bench.
 * Fails loudly when redis-server is not installed: CI installs it (tools/ci/install-redis.sh).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { stallFreeDelay } from './stall.ts';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server answering for `ms` (SIGSTOP, then SIGCONT): a stalled Redis; resolves when it answers again. */
  pause(ms: number): Promise<void>;
  /**
   * Stops the server answering until the returned `resume` is called (SIGSTOP, then SIGCONT): a Redis that does not
   * answer for as long as a test needs it not to, however late this process runs. `pause(ms)` ends on a timer of
   * this process, so a process starved for `ms` finds Redis answering again before it has judged it. Resumed
   * after `backstopMs` anyway, and by `stop()`: a test that failed or timed out leaves no stopped server behind.
   */
  hold(backstopMs?: number): () => void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server on `port` (a free one by default; pass a stopped server's port to restart it). */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Started within 10 s in which this process could run: a starved machine (the server starves with it)
  // took longer than 10 s of wall time to restart one, and the test failed on that alone.
  const stop = new AbortController();
  const settled = () => stop.abort();
  await new Promise<void>((resolve, reject) => {
    let output = '';
    void stallFreeDelay(10_000, stop.signal).then(
      () => stop.signal.aborted || reject(new Error(`redis-server did not start:\n${output}`)),
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        settled();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      settled();
      reject(
        new Error(
          `redis-server could not be started (is it installed? tools/ci/install-redis.sh): ${error.message}`,
        ),
      );
    });
    child.once('exit', (code) => {
      settled();
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    hold: (backstopMs = 30_000) => {
      child.kill('SIGSTOP');
      const resume = () => {
        clearTimeout(backstop);
        child.kill('SIGCONT');
      };
      const backstop = setTimeout(resume, backstopMs);
      backstop.unref();
      return resume;
    },
    pause: (ms) => {
      child.kill('SIGSTOP');
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          child.kill('SIGCONT');
          resolve();
        }, ms),
      );
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGCONT'); // a held server takes its SIGTERM only once it runs
        child.kill('SIGTERM');
      }),
  };
}
