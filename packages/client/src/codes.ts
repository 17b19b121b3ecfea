/** The documented codes plus any string: the set differs per endpoint and grows in minor versions. */
export type { ErrorCode, KnownErrorCode } from '@partner-print/openapi';
