// download() waiting out 202s against a server on 127.0.0.1 on real time: a file that stays 202 with
// `Retry-After: 0` must not become a tight loop of requests (each spends the default and downloads buckets),
// and the wait stays within the call's signal, its timeoutMs per request and maxWaitMs.
import { afterEach, describe, expect, it } from 'vitest';
import { timeWithoutStalls } from '../../../test-utils/stall.ts';
import { AbortedError, createClient, TimeoutError } from '../src/index.ts';
import { KEY, PNG } from './fake.ts';
import { startServer, type TestServer } from './servers.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server whose render media stays 202 with `retryAfter` for the first `pending` asks (forever by default). */
async function rendering(retryAfter: string, pending = Number.POSITIVE_INFINITY, hang = false) {
  const server = await startServer((_, res, self) => {
    if (self.received.length <= pending) {
      res.writeHead(202, { 'retry-after': retryAfter });
      res.end();
    } else if (!hang) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    }
  });
  servers.push(server);
  const client = createClient({
    secretKey: KEY,
    baseUrl: server.baseUrl,
    rateLimit: false,
    telemetry: false,
  });
  return { server, client };
}

const init = { params: { path: { renderReference: 'Render_1' } } } as const;
const PATH = '/renders/{renderReference}/media';

describe('download waiting for a file that stays 202 (a server on 127.0.0.1)', () => {
  it.each(['0', '0.001', 'Mon, 01 Jan 2024 00:00:00 GMT'])(
    'Retry-After %j: one request, then at least a second before the next (not a loop of requests)',
    async (retryAfter) => {
      const { server, client } = await rendering(retryAfter);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('enough')), 400);
      const error = await client
        .download(PATH, { ...init, signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortedError);
      expect(server.received).toHaveLength(1);
    },
  );

  it('asks again after the floor of a second and returns the file', async () => {
    const { server, client } = await rendering('0', 1);
    const started = performance.now();
    const { data } = await client.download(PATH, init);
    expect(data).toEqual(PNG);
    expect(server.received).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('maxWaitMs bounds the whole wait, the floor included', async () => {
    const { server, client } = await rendering('0');
    // Timed without the process's stalls (test-utils/stall.ts): a starved test is not a longer wait.
    const { result: error, ms } = await timeWithoutStalls(() =>
      client.download(PATH, init, { maxWaitMs: 1_500 }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'timeout', retryAfter: 0 });
    expect(server.received).toHaveLength(2);
    expect(ms).toBeLessThan(1_500);
  });

  it("the call's timeoutMs bounds each request of the wait", async () => {
    const { server, client } = await rendering('0', 1, true);
    const { result: error, ms } = await timeWithoutStalls(() =>
      client.download(PATH, { ...init, timeoutMs: 300, retry: false }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.received).toHaveLength(2);
    expect(ms).toBeLessThan(2_500);
  });
});
