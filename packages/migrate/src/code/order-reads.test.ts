import { describe, expect, it } from 'vitest';
import { rewriteTwice, todos } from '../../test/rewrite.ts';

const HEAD = `const BASE = 'https://api.partner-print.example/v1';\nconst H = { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY ?? '' };\n`;
const create = (body: string) =>
  `${HEAD}export async function create(order: unknown) {\n  const res = await fetch(\`\${BASE}/orders\`, { method: 'POST', headers: H, body: JSON.stringify(order) });\n${body}}\n`;

function rewrite(text: string) {
  const result = rewriteTwice(text);
  expect(result.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
    'POST /orders (fetch)',
  ]);
  return result;
}
const todoFields = (r: ReturnType<typeof rewrite>) =>
  r.findings.filter((f) => f.kind === 'todo' && f.what.startsWith('V1 response')).map((f) => f.what);

describe('reads of the V1 order answer', () => {
  it('destructured: order_reference becomes reference under the same local name; other fields are marked', () => {
    const r = rewrite(create('  const { order_reference } = await res.json();\n  return order_reference;\n'));
    expect(r.output).toContain('const { reference: order_reference } = (await partnerPrint.createOrder(');
    expect(todos(r.output)).toBe(0);
    const renamed = rewrite(
      create(
        '  const { order_reference: ref, status, tracking_code } = await res.json();\n  return [ref, status, tracking_code];\n',
      ),
    );
    expect(renamed.output).toContain(
      'const { reference: ref, status, tracking_code } = (await partnerPrint.createOrder(',
    );
    expect(todoFields(renamed)).toEqual(['V1 response field status', 'V1 response field tracking_code']);
    expect(todos(renamed.output)).toBe(1);
  });

  it('a destructuring of the variable that holds it, and a rest element, are read the same way', () => {
    const r = rewrite(
      create(
        '  const data = await res.json();\n  const { order_reference: ref, ...rest } = data;\n  return [ref, rest];\n',
      ),
    );
    expect(r.output).toContain('const { reference: ref, ...rest } = data;');
    expect(todoFields(r)).toEqual(['V1 response field ...rest']);
  });

  it('a computed or optional read is mapped or marked like a plain one', () => {
    const r = rewrite(
      create(
        "  const data = await res.json();\n  return [data['order_reference'], data?.order_reference, data[field]];\n",
      ),
    );
    expect(r.output).toContain('return [data.reference, data?.reference, data[field]];');
    expect(todoFields(r)).toEqual(['V1 response field [field]']);
  });

  it('the answer used as a whole (returned, passed on, spread) is marked: its fields changed', () => {
    for (const use of [
      '  return await res.json();\n',
      '  const data = await res.json();\n  return data;\n',
      '  const data = await res.json();\n  save(data);\n',
      '  const data = await res.json();\n  return { ...data, ok: true };\n',
    ]) {
      const r = rewrite(create(use));
      expect(todoFields(r), use).toEqual(['V1 response field (the order answer)']);
      expect(todos(r.output), use).toBe(1);
    }
  });

  it('a test of whether there is an answer is no reason to mark', () => {
    const r = rewrite(
      create(
        "  const data = await res.json();\n  if (!data) throw new Error('no answer');\n  return data.order_reference;\n",
      ),
    );
    expect(todos(r.output)).toBe(0);
    expect(r.output).toContain('return data.reference;');
  });
});
