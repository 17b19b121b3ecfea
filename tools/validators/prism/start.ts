import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const TOOLS = path.resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Prism logs "listening" at info level only, so readiness is a connection it answers. */
async function listening(origin: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answered = await fetch(`${origin}/`, { method: 'OPTIONS' }).then(
      async (res) => {
        await res.arrayBuffer();
        return true;
      },
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Prism did not start within ${timeoutMs} ms`);
}

export interface PrismProxy {
  origin: string;
  /** Prism's own log lines (warnings and errors), for the report. */
  log: string[];
  stop(): Promise<void>;
}

/** Starts `prism proxy` in front of `upstream` and resolves once it listens. */
export async function startPrism(
  document: string,
  upstream: string,
  timeoutMs = 90_000,
): Promise<PrismProxy> {
  const port = await freePort();
  const bin = path.join(TOOLS, 'node_modules', '.bin', process.platform === 'win32' ? 'prism.cmd' : 'prism');
  const child: ChildProcess = spawn(
    bin,
    [
      'proxy',
      document,
      upstream,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--errors=false',
      '-v',
      'warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log: string[] = [];
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => reject(new Error(`Prism exited with ${code}:\n${log.join('\n')}`)));
  });
  const collect = (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await Promise.race([listening(origin, timeoutMs), exited]);
  return {
    origin,
    log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
