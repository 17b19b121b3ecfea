import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { busy } from '../../../../test-utils/stall.ts';
import {
  bucketsOf,
  budgetKeyOf,
  checkSecretKey,
  errorCodeOf,
  isReference,
  isV1CredentialHeader,
  overdue,
  parseRetryAfter,
  referencePattern,
  referencePrefixOf,
  sha256Hex,
  sniffImageType,
  systemClock,
  V1_CREDENTIAL_HEADERS,
  v1CredentialKind,
} from './index.ts';

describe('references', () => {
  const opaque = 'A'.repeat(26);
  it('checks the prefix and the 26 opaque characters', () => {
    expect(isReference('Order', `Order_${opaque}`)).toBe(true);
    expect(isReference('Order', `Product_${opaque}`)).toBe(false);
    expect(isReference('Order', `Order_${opaque}A`)).toBe(false);
    expect(isReference('Order', 42)).toBe(false);
  });
  it('takes URL-unreserved characters only with the unreserved alphabet', () => {
    const value = `Order_${'a-b.c~d_'.repeat(3)}xy`;
    expect(isReference('Order', value)).toBe(false);
    expect(isReference('Order', value, 'unreserved')).toBe(true);
    expect(referencePattern('Order', 'unreserved').test(`Order_${'%'.repeat(26)}`)).toBe(false);
  });
  it('names the prefix of a reference-shaped value', () => {
    expect(referencePrefixOf(`Claimcategory_${opaque}`)).toBe('Claimcategory');
    expect(referencePrefixOf('Nope_x')).toBeUndefined();
    expect(referencePrefixOf('orders')).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  it.each([
    ['0', 0],
    ['17', 17_000],
    ['1.5', 1500],
    [' 3 ', 3000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', 30_000],
    ['Wed, 25 Nov 2026 09:00:00 GMT', 0],
  ])('%j → %d ms', (value, ms) => expect(parseRetryAfter(value, now)).toBe(ms));
  it.each([null, undefined, '', '-1', 'soon', '1e3', '2001-01-01', '0x10'])('%j is malformed', (value) =>
    expect(parseRetryAfter(value, now)).toBeUndefined(),
  );
  // RFC 9110: a date is relative to the answer's Date, so a host whose clock is off (here an hour behind, or
  // 10 minutes ahead) waits what the server asked; without a usable Date, relative to the host's clock.
  const sent = 'Wed, 25 Nov 2026 10:00:00 GMT';
  it.each([
    ['Wed, 25 Nov 2026 10:00:30 GMT', now - 3_600_000, sent, 30_000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', now + 600_000, sent, 30_000],
    ['Wed, 25 Nov 2026 09:59:00 GMT', now - 3_600_000, sent, 0],
    ['17', now, 'Wed, 25 Nov 2026 09:00:00 GMT', 17_000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', now, null, 30_000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', now, '', 30_000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', now, '2001-01-01', 30_000],
    ['Wed, 25 Nov 2026 10:00:30 GMT', now, 'yesterday', 30_000],
  ])('%j at %d with Date %j → %d ms', (value, at, date, ms) =>
    expect(parseRetryAfter(value, at, date)).toBe(ms),
  );
});

describe('V1 credential headers', () => {
  it.each(['X-Partner-Key', 'Store-Code', 'partner_code', 'X-Api-Key', 'apikey', 'X-Partner-Api-Key'])(
    '%s is V1',
    (h) => expect(isV1CredentialHeader(h)).toBe(true),
  );
  it.each(['X-Service-Secret-Key', 'Authorization', 'X-Request-Id', 'Content-Type'])('%s is not', (h) =>
    expect(isV1CredentialHeader(h)).toBe(false),
  );
  it('tells the two credentials apart and lists lowercase names', () => {
    expect(v1CredentialKind('Partner-Code')).toBe('partner-code');
    expect(v1CredentialKind('x-partner-key')).toBe('api-key');
    for (const name of V1_CREDENTIAL_HEADERS) expect(name).toBe(name.toLowerCase());
  });
  it('recognises exactly the names of the list (the pattern and the kinds alike), among every spelling of the words with mixed separators', () => {
    const words = ['partner', 'store', 'api', 'code', 'key'];
    const seps = ['-', '_', '', '.'];
    const names = new Set<string>();
    const grow = (name: string, depth: number): void => {
      names.add(name);
      names.add(`x-${name}`);
      if (depth < 3) for (const sep of seps) for (const w of words) grow(`${name}${sep}${w}`, depth + 1);
    };
    for (const w of words) grow(w, 1);
    const listed = new Set(V1_CREDENTIAL_HEADERS);
    for (const name of names) {
      expect(isV1CredentialHeader(name), name).toBe(listed.has(name));
      expect(isV1CredentialHeader(name.toUpperCase()), name).toBe(listed.has(name));
      expect(v1CredentialKind(name) !== undefined, name).toBe(listed.has(name));
    }
    expect(V1_CREDENTIAL_HEADERS).toHaveLength(30);
  });
});

describe('checkSecretKey', () => {
  it('accepts visible ASCII', () => expect(() => checkSecretKey('sk_test_SECRET123')).not.toThrow());
  it.each([
    ['sk_test_SECRET123\0', /NUL/],
    ['sk_test_SECRET123\r\nX: y', /line break/],
    ['sk_test SECRET123', /space/],
    ['sk_test_SECRÉT123', /non-ASCII/],
    ['', /empty/],
  ])('refuses %j without echoing it', (key, why) => {
    expect(() => checkSecretKey(key)).toThrow(why);
    try {
      checkSecretKey(key);
    } catch (error) {
      if (key) expect(String((error as Error).message)).not.toContain(key.slice(0, 8));
    }
  });
  it('never echoes any key it refuses', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 4 }),
        fc.constantFrom('\0', '\n', '\r', ' ', '\u0001', 'é'),
        (key, bad) => {
          const value = `${key}${bad}`;
          try {
            checkSecretKey(value);
          } catch (error) {
            expect((error as Error).message.includes(value)).toBe(false);
            return;
          }
          throw new Error('accepted');
        },
      ),
    );
  });
  it('refuses non-strings', () => expect(() => checkSecretKey(undefined)).toThrow(/must be a string/));
});

describe('bucketsOf', () => {
  it('routes uploads and downloads from the spec', () => {
    expect(bucketsOf('POST', '/images')).toEqual(['default', 'uploads']);
    expect(bucketsOf('post', '/evidence')).toEqual(['default', 'uploads']);
    expect(bucketsOf('GET', `/renders/Render_${'x'.repeat(26)}/media`)).toEqual(['default', 'downloads']);
    expect(bucketsOf('GET', '/renders/{renderReference}/thumbnail')).toEqual(['default', 'downloads']);
    expect(bucketsOf('GET', `/products/Product_${'x'.repeat(26)}/media/front.png?x=1`)).toEqual([
      'default',
      'downloads',
    ]);
  });
  it('every other route spends default only', () => {
    expect(bucketsOf('GET', '/orders')).toEqual(['default']);
    expect(bucketsOf('GET', `/renders/Render_${'x'.repeat(26)}`)).toEqual(['default']);
    expect(bucketsOf('GET', '/images')).toEqual(['default']);
    expect(bucketsOf('DELETE', '/unknown/route')).toEqual(['default']);
  });
});

describe('images and hashing', () => {
  it('sniffs JPEG and PNG only', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'image/png',
    );
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array())).toBeUndefined();
  });
  it('hashes strings, buffers and views alike', async () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(await sha256Hex('abc')).toBe(abc);
    expect(await sha256Hex(new TextEncoder().encode('abc').buffer)).toBe(abc);
    expect(await sha256Hex(new TextEncoder().encode('xabcx').subarray(1, 4))).toBe(abc);
  });
});

describe('systemClock', () => {
  it('sleeps and aborts with the signal reason', async () => {
    await systemClock.sleep(1);
    const controller = new AbortController();
    const slept = systemClock.sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(slept).rejects.toThrow('stop');
  });

  it('waits out a delay past the largest a timer takes (a deadline meant as "never"), not 1 ms', async () => {
    const never = new AbortController();
    let ended = false;
    const slept = systemClock.sleep(Number.POSITIVE_INFINITY, never.signal).then(() => {
      ended = true;
    });
    let answer = (_value: string) => {};
    const answered = overdue(
      new Promise<string>((resolve) => {
        answer = resolve;
      }),
      2 ** 40,
      systemClock,
      () => new Error('overdue'),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    never.abort(new Error('done'));
    await expect(slept).rejects.toThrow('done');
    answer('in time');
    await expect(answered).resolves.toBe('in time');
  });
});

describe('overdue', () => {
  const never = new Promise<never>(() => {});
  const late = () => new Error('late');

  it('rejects after its time on the system clock, and answers what comes in time', async () => {
    const windows: number[] = [];
    const realSleep = systemClock.sleep;
    const sleep = vi.spyOn(systemClock, 'sleep').mockImplementation((ms, signal) => {
      windows.push(ms);
      return realSleep(ms, signal);
    });
    const start = performance.now();
    try {
      await expect(overdue(never, 50, systemClock, late)).rejects.toThrow('late');
    } finally {
      sleep.mockRestore();
    }
    expect(performance.now() - start).toBeGreaterThanOrEqual(49);
    // A starved process (pnpm test runs this suite in the idle class beside busy cores) may see its first
    // window end late and wait a second one; which of the two happened is checked below on a held clock.
    expect(windows).toEqual(windows.length === 2 ? [50, 0] : [50, 50, 0]);
    await expect(overdue(Promise.resolve(7), 60_000, systemClock, late)).resolves.toBe(7);
    await expect(overdue(Promise.reject(new Error('no')), 60_000, systemClock, late)).rejects.toThrow('no');
  });

  it('waits a second window only when the first ended later than a tenth of it (at least 10 ms), once', async () => {
    // performance.now held by the test, so that the rule is checked and not the machine's load: a bound on
    // the real time between two windows failed on a starved CI run (a window called 4 ms after its deadline
    // was computed).
    let now = 1_000;
    const clockNow = vi.spyOn(performance, 'now').mockImplementation(() => now);
    const windowsFor = async (ms: number, lateBy: number[]) => {
      const windows: number[] = [];
      const sleep = vi.spyOn(systemClock, 'sleep').mockImplementation(async (wait) => {
        windows.push(wait);
        now += wait + (wait === 0 ? 0 : (lateBy.shift() ?? 0));
      });
      try {
        await expect(overdue(never, ms, systemClock, late)).rejects.toThrow('late');
      } finally {
        sleep.mockRestore();
      }
      return windows;
    };
    try {
      expect(await windowsFor(50, [10])).toEqual([50, 0]); // 10 ms late: within the slack
      expect(await windowsFor(50, [11])).toEqual([50, 50, 0]); // 11 ms late: once more
      expect(await windowsFor(50, [500, 500])).toEqual([50, 50, 0]); // late twice: still only once more
      expect(await windowsFor(1_000, [100])).toEqual([1_000, 0]); // a tenth of 1 s
      expect(await windowsFor(1_000, [101])).toEqual([1_000, 1_000, 0]);
    } finally {
      clockNow.mockRestore();
    }
  });

  it('does not count a stall of the event loop: its time starts again after it, once', async () => {
    const start = performance.now();
    const waiting = overdue(never, 50, systemClock, late);
    busy(200); // the timer fires 150 ms late
    await expect(waiting).rejects.toThrow('late');
    expect(performance.now() - start).toBeGreaterThanOrEqual(200 + 49);
  });

  it('takes another clock (a virtual one) as it reads: no second wait', async () => {
    const slept: number[] = [];
    const clock = {
      now: () => 0,
      sleep: (ms: number) => {
        slept.push(ms);
        busy(ms === 0 ? 0 : 30); // later than asked, in real time
        return Promise.resolve();
      },
    };
    await expect(overdue(never, 10, clock, late)).rejects.toThrow('late');
    expect(slept).toEqual([10, 0]);
  });
});

describe('budgetKeyOf', () => {
  it('is sha256: and the hex digest of the key, never the key', async () => {
    const key = await budgetKeyOf('sk_test_secret');
    expect(key).toBe(`sha256:${await sha256Hex('sk_test_secret')}`);
    expect(key).not.toContain('sk_test_secret');
  });
});

describe('errorCodeOf', () => {
  const answer = (body: BodyInit | null) => new Response(body, { status: 429 });

  it("reads the body's code from a copy, leaving the body to the caller", async () => {
    const response = answer('{"code":"rendertoken_limit_exceeded","message":"m"}');
    expect(await errorCodeOf(response)).toBe('rendertoken_limit_exceeded');
    expect(await response.json()).toMatchObject({ message: 'm' });
  });

  it('has no code for a body that is not JSON, not an object, has a non-string code, or none', async () => {
    for (const body of ['<html>', '"code"', 'null', '{"code":5}', '', null]) {
      expect(await errorCodeOf(answer(body))).toBeUndefined();
    }
  });

  it('gives up on a body larger than maxBytes and on one that does not arrive within timeoutMs', async () => {
    expect(await errorCodeOf(answer(`{"code":"x","pad":"${'a'.repeat(70_000)}"}`))).toBeUndefined();
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"code":'));
      },
    });
    // The body never ends: a reader that did not give up at timeoutMs would fail on the test's timeout. Not
    // timed here, since a starved process (the idle class in pnpm test) may see seconds pass.
    expect(await errorCodeOf(answer(stalled), { timeoutMs: 50 })).toBeUndefined();
  });
});
