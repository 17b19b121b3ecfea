/** Error codes the service reference documents. Endpoints may answer with other codes too. */
export const KNOWN_ERROR_CODES = [
  'missing_address',
  'missing_image_reference',
  'evidence_required',
  'rendertoken_limit_exceeded',
  'rate_limited',
] as const;

export type KnownErrorCode = (typeof KNOWN_ERROR_CODES)[number];

/** The open set of error codes: a documented one, or any other string (editors still suggest the known ones). */
export type ErrorCode = KnownErrorCode | (string & Record<never, never>);

export function isKnownErrorCode(code: unknown): code is KnownErrorCode {
  return typeof code === 'string' && (KNOWN_ERROR_CODES as readonly string[]).includes(code);
}
