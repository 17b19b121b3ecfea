// The SDK (client guard, migrate detector) and the sandbox each keep their own list of V1 credential header
// names, on purpose (DESIGN: the two sides share no wire-format code). This test makes them agree.
import * as sdk from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import * as sandbox from '../src/v1-credentials.ts';

const CASES: Array<[name: string, kind: 'partner-code' | 'api-key' | undefined]> = [
  ['X-Partner-Key', 'api-key'],
  ['Store-Code', 'partner-code'],
  ['x-partner-code', 'partner-code'],
  ['PARTNER_CODE', 'partner-code'],
  ['X-Api-Key', 'api-key'],
  ['apikey', 'api-key'],
  ['X-Partner-Api-Key', 'api-key'],
  ['partner_api_key', 'api-key'],
  ['X-Service-Secret-Key', undefined],
  ['Authorization', undefined],
  ['X-Api-Keys', undefined],
  ['Store', undefined],
];

describe('V1 credential header names: SDK and sandbox agree', () => {
  it('list the same names', () => {
    expect([...sandbox.V1_CREDENTIAL_HEADERS].sort()).toEqual([...sdk.V1_CREDENTIAL_HEADERS].sort());
  });
  it.each(CASES)('%s → %s on both sides', (name, kind) => {
    expect(sdk.v1CredentialKind(name)).toBe(kind);
    expect(sandbox.v1CredentialKind(name)).toBe(kind);
  });
  it('agree on every listed name, whatever its case', () => {
    for (const name of sdk.V1_CREDENTIAL_HEADERS) {
      const shouted = name.toUpperCase();
      expect(sandbox.v1CredentialKind(shouted)).toBe(sdk.v1CredentialKind(shouted));
    }
  });
});
