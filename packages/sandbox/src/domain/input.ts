/** A JSON object (not null, not an array): what a wrapped request body or a nested field must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
