// The sandbox under load, in its own process so the load generator does not share its event loop.
import { startSandboxServer } from '../src/node/index.ts';

const server = await startSandboxServer({ port: 0, sandbox: { rateLimits: false } });
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: { type: string }) => {
  if (message.type === 'memory') {
    gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'memory', rss, heapUsed, cpuMicros: user + system });
  } else if (message.type === 'close') {
    void server.close().then(() => process.exit(0));
  }
});
process.send?.({
  type: 'ready',
  url: server.url,
  key: server.sandbox.keys.primary,
  seed: server.sandbox.seed,
});
