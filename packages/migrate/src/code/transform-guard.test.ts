import { describe, expect, it, vi } from 'vitest';

// A failure inside the rewrite (here: the response analysis throws) is that file's error, not the run's.
vi.mock('./consumers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./consumers.ts')>()),
  consumerOf: () => {
    throw new RangeError('Maximum call stack size exceeded');
  },
}));

describe('transformSource when the rewrite itself fails', () => {
  it('returns the text unchanged with the error', async () => {
    const { transformSource } = await import('./transform.ts');
    const text = `export async function f(r: string) {\n  const res = await fetch(\`https://h.example/v1/orders?partner_reference=\${r}\`, { headers: { 'X-Partner-Code': 'A' } });\n  return (await res.json()).reference;\n}\n`;
    const r = transformSource(text, 'a.ts');
    expect(r.error).toBe('could not be rewritten: Maximum call stack size exceeded');
    expect(r.output).toBe(text);
    expect(r.changed).toBe(false);
  });
});
