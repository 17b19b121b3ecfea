// The public surface of each entry point, names and kinds: widening it is a deliberate change of this file.
import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors-entry.ts';
import * as main from '../src/index.ts';
import * as lite from '../src/lite.ts';
import * as redis from '../src/redis.ts';

const kind = (value: unknown) =>
  typeof value === 'function'
    ? /^class\b/.test(Function.prototype.toString.call(value))
      ? 'class'
      : 'function'
    : typeof value;

const surface = (entry: object) =>
  Object.fromEntries(Object.entries(entry).map(([name, value]) => [name, kind(value)]));

describe('exports', () => {
  it('of @partner-print/client', () => {
    expect(surface(main)).toMatchInlineSnapshot(`
      {
        "AbortedError": "class",
        "AmbiguousOrderError": "class",
        "AmbiguousOutcomeError": "class",
        "AuthenticationError": "class",
        "ConfigurationError": "class",
        "DOCS_URL": "string",
        "GoneError": "class",
        "IdentifierConflictError": "class",
        "MAX_REDIRECTS": "number",
        "MIGRATION_GUIDE": "string",
        "NetworkError": "class",
        "NotFoundError": "class",
        "PartnerPrintError": "class",
        "REDACTED": "string",
        "RateLimitedError": "class",
        "RedirectError": "class",
        "RendertokenLimitError": "class",
        "TimeoutError": "class",
        "USER_AGENT": "string",
        "V1CredentialsError": "class",
        "ValidationError": "class",
        "collect": "function",
        "createClient": "function",
        "createOrder": "function",
        "download": "function",
        "isPartnerPrintError": "function",
        "lookupOrderReference": "function",
        "memoryOrderClaims": "function",
        "paginate": "function",
        "redactSecret": "function",
        "sameOrderContent": "function",
        "systemClock": "object",
        "uploadEvidence": "function",
        "uploadImage": "function",
      }
    `);
  });

  it('of @partner-print/client/lite: the same, its own createClient', () => {
    expect(surface(lite)).toEqual(surface(main));
    expect(lite.createClient).not.toBe(main.createClient);
  });

  it('of @partner-print/client/errors: every error class of the main and redis entries and isPartnerPrintError, the same ones', () => {
    const of = (entry: object) =>
      Object.entries(entry).filter(([name]) => name.endsWith('Error') || name === 'isPartnerPrintError');
    const classes = new Map([...of(main), ...of(redis)]);
    const entry = new Map(Object.entries(errors));
    expect([...entry.keys()].sort()).toEqual([...classes.keys()].sort());
    for (const [name, value] of classes) expect(entry.get(name)).toBe(value);
  });
});
