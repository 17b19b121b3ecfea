// The SDK's wire rules, each in one place: every SDK package imports them from here. Small and free of the
// bundled spec document, so importing a rule costs only that rule. The sandbox keeps its own, independent
// half on purpose (a misreading must not cancel itself out in tests).

export { OPERATIONS, type OperationId } from '../generated/operations.ts';
export { bucketsOf, DEFAULT_BUCKET, RATE_LIMIT_ROUTES, type RateLimitRoute } from './buckets.ts';
export { budgetKeyOf } from './budget-key.ts';
export { type Clock, overdue, systemClock } from './clock.ts';
export {
  bindContext,
  type ContextRunner,
  type ContextScope,
  captureContext,
  captureScope,
} from './context.ts';
export {
  checkSecretKey,
  isV1CredentialHeader,
  V1_CREDENTIAL_HEADERS,
  V2_SECRET_KEY_HEADER,
  v1CredentialKind,
} from './credentials.ts';
export { errorCodeOf } from './error-code.ts';
export { sha256Hex } from './hash.ts';
export { sniffImageType, type UploadImageType } from './image.ts';
export { refuseUnknownOptions } from './options.ts';
export { quietly } from './quietly.ts';
export {
  isReference,
  isUnreservedReference,
  REFERENCE_OPAQUE_LENGTH,
  REFERENCE_PREFIXES,
  type Reference,
  type ReferenceAlphabet,
  type ReferencePrefix,
  referencePattern,
  referencePrefixOf,
  unreservedReferencePattern,
} from './references.ts';
export { MIN_FILE_WAIT_MS, parseRetryAfter } from './retry-after.ts';
