import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../../../test-utils/redis-proxy.ts';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import { workerScript } from '../../../test-utils/worker-script.ts';
import { newSandbox, tempDir } from './helpers.ts';

// The CLI as a user runs it, in a process of its own: what keeps that process alive after Ctrl-C is not
// visible to runCli in the test's process. A real redis-server on 127.0.0.1, started here (without it this
// test fails, never skips), behind a TCP proxy that plays the outage.
const CLI = new URL('../src/node/cli.ts', import.meta.url);
let server: RedisServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let api: Server | undefined;
let child: ChildProcess | undefined;

beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startProxy(server.port);
}, 20_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await new Promise((resolve) => (api ? api.close(resolve) : resolve(undefined)));
  await proxy?.close();
  await server?.stop();
});

/** The sandbox over HTTP on 127.0.0.1; `onPost` sees each POST /orders before the sandbox answers it. */
async function serveSandbox(sb: ReturnType<typeof newSandbox>, onPost: () => Promise<void>): Promise<string> {
  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  };
  api = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', sb.baseUrl);
    const init = {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: await body(req),
    };
    if (req.method === 'POST' && url.pathname.endsWith('/orders')) await onPost();
    const answer = await sb.fetch(new Request(url, init));
    res
      .writeHead(answer.status, Object.fromEntries(answer.headers))
      .end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => api?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(api.address() as AddressInfo).port}${new URL(sb.baseUrl).pathname}`;
}

/** The CLI in a process of its own (its sources bundled), with only `env` and PATH. */
function startCli(argv: string[], env: Record<string, string>) {
  child = spawn(process.execPath, [workerScript(CLI), ...argv], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const) {
    child[name]?.setEncoding('utf8');
    child[name]?.on('data', (chunk: string) => {
      output[name] += chunk;
    });
  }
  const exited = new Promise<number | null>((resolve) => child?.once('close', (code) => resolve(code)));
  const stderrContains = (text: string) =>
    new Promise<void>((resolve, reject) => {
      child?.stderr?.on('data', () => output.stderr.includes(text) && resolve());
      void exited.then((code) =>
        reject(
          new Error(`the CLI exited (${code}) before writing "${text}":\n${output.stderr}${output.stdout}`),
        ),
      );
    });
  return { child, exited, output, stderrContains };
}

describe('partner-print-migrate orders --submit --redis, Ctrl-C during a Redis outage', () => {
  // A release Redis missed is retried until its claim expires (30 s). After Ctrl-C the CLI stops those
  // retries: their timers would otherwise keep its process alive until then, long after the run ended.
  it('the process exits within seconds, not when the claims it could not release expire', {
    timeout: 90_000,
  }, async () => {
    const sb = newSandbox();
    const lines = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({
        store_reference: sb.seed.stores.combined,
        shipping_kind: 'combined',
        partner_reference: `CTRL-C-${i + 1}`,
        orderlines: [{ sku: sb.seed.legacySkus.nonPrint, quantity: 1 }],
      }),
    );
    const file = join(tempDir(), 'orders.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    // Redis goes away while the first order is being posted: its claim's release misses Redis.
    let posts = 0;
    const baseUrl = await serveSandbox(sb, async () => {
      if (++posts !== 1) return;
      proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const args = ['orders', file, '--submit', '--json', '--concurrency', '1'];
    const cli = startCli([...args, '--base-url', baseUrl, '--redis', proxy.url], {
      PARTNER_PRINT_SECRET_KEY: sb.keys.primary,
    });
    // The release failed (the claims say Redis is gone) and the next line waits for Redis: Ctrl-C.
    await cli.stderrContains('Redis is unreachable');
    const interrupted = Date.now();
    cli.child.kill('SIGINT');
    const code = await cli.exited;
    const seconds = (Date.now() - interrupted) / 1000;
    proxy.restore();
    expect(posts).toBe(1);
    expect(cli.output.stderr).toContain('Stopping after the lines in flight');
    expect(code).toBe(130);
    expect(JSON.parse(cli.output.stdout)).toMatchObject({ interrupted: true });
    // A hang bound, generous for a loaded machine: it exits about 2 s after Ctrl-C; without abandoning the
    // releases, 29 s after (the retries go on until the claim would have expired).
    expect(seconds).toBeLessThan(15);
  });
});
