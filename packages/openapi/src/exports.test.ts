import { describe, expect, it } from 'vitest';
import * as main from './index.ts';
import * as wire from './wire/index.ts';

/** Runtime names of an entry point and their kinds; widening the public surface changes this on purpose. */
const surface = (entry: Record<string, unknown>): string[] =>
  Object.keys(entry)
    .sort()
    .map((name) => {
      const value = entry[name];
      if (typeof value !== 'function') return `${name}: ${typeof value}`;
      return `${name}: ${/^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function'}`;
    });

describe('exports (the README documents each)', () => {
  it('@partner-print/openapi', () => {
    expect(surface(main)).toEqual([
      'KNOWN_ERROR_CODES: object',
      'OPERATIONS: object',
      'REFERENCE_PREFIXES: object',
      'isKnownErrorCode: function',
      'isReference: function',
      'referencePattern: function',
      'spec: object',
    ]);
  });
  it('@partner-print/openapi/wire', () => {
    expect(surface(wire)).toEqual([
      'DEFAULT_BUCKET: string',
      'RATE_LIMIT_ROUTES: object',
      'REFERENCE_OPAQUE_LENGTH: number',
      'REFERENCE_PREFIXES: object',
      'V1_CREDENTIAL_HEADERS: object',
      'V2_SECRET_KEY_HEADER: string',
      'bucketsOf: function',
      'checkSecretKey: function',
      'isReference: function',
      'isV1CredentialHeader: function',
      'parseRetryAfter: function',
      'referencePattern: function',
      'referencePrefixOf: function',
      'sha256Hex: function',
      'sniffImageType: function',
      'systemClock: object',
      'v1CredentialKind: function',
    ]);
  });
});
