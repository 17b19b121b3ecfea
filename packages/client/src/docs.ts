// Where errors point for an explanation. One constant to change when the documentation moves.

/** The published documentation site (the single page built from `docs/`): `docUrl`s are links into it. */
export const DOCS_URL = 'https://partner-print.github.io/sdk/';

// Guide sections, as the docs site routes them: `#/guide-<file>/<heading slug>`.
const ERRORS = 'getting-started/when-a-call-fails';
const BY_NAME: Record<string, string> = {
  AuthenticationError: 'authentication-and-environments/secret-keys',
  V1CredentialsError: 'migrating-from-v1/what-changed',
  ConfigurationError: 'getting-started/create-a-client',
  RedirectError: 'authentication-and-environments/redirects',
  RateLimitedError: 'rate-limits/when-a-bucket-is-empty',
  RendertokenLimitError: 'rendering/rendertokens',
  AmbiguousOutcomeError: 'orders-and-shipments/creating-an-order-exactly-once',
};
const BY_CODE: Record<string, string> = {
  missing_address: 'orders-and-shipments/placing-an-order',
  missing_image_reference: 'orders-and-shipments/placing-an-order',
  evidence_required: 'claims/error-codes',
  unsupported_image_format: 'images-and-evidence/the-rules',
  cursor_repeated: 'pagination/with-the-sdk',
};

/** The guide section for an error code, else for an error class, else the errors section of Getting started. */
export function docUrlOf(name: string, code?: string): string {
  const [guide, section] = ((code && BY_CODE[code]) || BY_NAME[name] || ERRORS).split('/');
  return `${DOCS_URL}#/guide-${guide}/${section}`;
}
