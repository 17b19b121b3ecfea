import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import winston from 'winston';
import { createClient, type Logger } from '../src/index.ts';
import { fakeFetch, json, testClock } from './fake.ts';

const BASE = 'https://api.example/v2';
const KEY = 'sk_test_loggers_do_not_print';

/** A stream collecting the JSON lines a logger writes. */
function jsonLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

/** One call that is retried once after a 503, then answered 200: a request, response and retry line. */
async function callWith(logger: Logger) {
  const { fetch } = fakeFetch((_req, n) =>
    n === 1 ? json({ code: 'unavailable' }, 503) : json({ orders: [] }),
  );
  const client = createClient({
    secretKey: KEY,
    baseUrl: BASE,
    fetch,
    clock: testClock(),
    logger,
    logLevel: 'debug',
  });
  await client.get('/orders');
}

/** What every line must hold as fields of its own, not only inside its message. */
function expectStructured(
  lines: Record<string, unknown>[],
  message: (l: Record<string, unknown>) => unknown,
) {
  const retry = lines.find((l) => String(message(l)).includes('retrying'));
  const response = lines.find((l) => l.status === 200);
  expect(lines.length).toBeGreaterThanOrEqual(5); // 2 requests, 2 responses, 1 retry
  for (const line of lines)
    expect(line).toMatchObject({ operation: 'listOrders', method: 'GET', url: `${BASE}/orders` });
  expect(retry).toMatchObject({ status: 503, attempt: 1 });
  expect(response).toMatchObject({ attempt: 2 });
  expect(JSON.stringify(lines)).not.toContain(KEY);
}

describe('loggers as they are', () => {
  it('pino: (fields, message), every field a field of the line', async () => {
    const { lines, stream } = jsonLines();
    await callWith(pino({ level: 'debug' }, stream));
    expectStructured(lines, (l) => l.msg);
    expect(lines.find((l) => String(l.msg).includes('retrying'))?.level).toBe(40);
  });

  it('winston: (message, fields), every field a field of the line', async () => {
    const { lines, stream } = jsonLines();
    const logger = winston.createLogger({
      level: 'debug',
      format: winston.format.json(),
      transports: [new winston.transports.Stream({ stream })],
    });
    await callWith(logger);
    await new Promise((r) => setImmediate(r));
    expectStructured(lines, (l) => l.message);
    expect(lines.find((l) => String(l.message).includes('retrying'))?.level).toBe('warn');
  });

  it('console: (message, fields)', async () => {
    const calls: Array<[string, unknown, unknown]> = [];
    const record = (level: string) => (message: unknown, fields: unknown) =>
      calls.push([level, message, fields]);
    const spies = (['debug', 'info', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(record(level)),
    );
    try {
      await callWith(console);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const lines = calls.map(([level, message, fields]) => ({ level, message, ...(fields as object) }));
    expect(
      calls.every(([, message, fields]) => typeof message === 'string' && typeof fields === 'object'),
    ).toBe(true);
    expectStructured(lines, (l) => l.message);
  });
});
