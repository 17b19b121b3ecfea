import { describe, expect, it } from 'vitest';
import { exportSurface } from '../../../test-utils/exports.ts';
import * as main from './index.ts';
import * as wire from './wire/index.ts';

describe('exports (the README documents each)', () => {
  it('@partner-print/openapi', () => {
    expect(exportSurface(main)).toEqual([
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
    expect(exportSurface(wire)).toEqual([
      'DEFAULT_BUCKET: string',
      'MIN_FILE_WAIT_MS: number',
      'OPERATIONS: object',
      'RATE_LIMIT_ROUTES: object',
      'REFERENCE_OPAQUE_LENGTH: number',
      'REFERENCE_PREFIXES: object',
      'V1_CREDENTIAL_HEADERS: object',
      'V2_SECRET_KEY_HEADER: string',
      'bindContext: function',
      'bucketsOf: function',
      'budgetKeyOf: function',
      'captureContext: function',
      'captureScope: function',
      'checkSecretKey: function',
      'errorCodeOf: function',
      'isReference: function',
      'isUnreservedReference: function',
      'isV1CredentialHeader: function',
      'overdue: function',
      'parseRetryAfter: function',
      'quietly: function',
      'referencePattern: function',
      'referencePrefixOf: function',
      'refuseUnknownOptions: function',
      'sha256Hex: function',
      'sniffImageType: function',
      'systemClock: object',
      'unreservedReferencePattern: function',
      'v1CredentialKind: function',
    ]);
  });
});
