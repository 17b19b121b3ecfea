export {
  isReference,
  REFERENCE_PREFIXES,
  type Reference,
  type ReferencePrefix,
  referencePattern,
} from './wire/references.ts';
