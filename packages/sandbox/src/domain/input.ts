/** A JSON object (not null, not an array): what a wrapped request body or a nested field must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Length in characters (Unicode code points), as the reference's "characters" and the spec's `maxLength`
 * (JSON Schema counts code points) mean it; `String#length` counts UTF-16 units, two per emoji.
 */
export function characters(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
