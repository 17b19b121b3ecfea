export { type ErrorCode, isKnownErrorCode, KNOWN_ERROR_CODES, type KnownErrorCode } from './errors.ts';
export { OPERATIONS, type OperationId } from './generated/operations.ts';
export type * from './generated/schema.ts';
export { type OpenApiDocument, spec } from './generated/spec.ts';
export {
  isReference,
  REFERENCE_PREFIXES,
  type Reference,
  type ReferencePrefix,
  referencePattern,
} from './references.ts';
