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

/** The call was left on V1 as it was: one TODO above it, nothing rewritten, no read marked on its own. */
function leftOnV1(text: string) {
  const r = rewriteTwice(text);
  expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
  expect(r.output).toMatch(/const res = await fetch\(`\$\{BASE\}\/orders`/);
  expect(todoFields(r)).toEqual([]);
  const call = r.findings.filter((f) => f.what === 'POST /orders (fetch)');
  expect(call.map((f) => f.kind)).toEqual(['todo']);
  return call[0]!.detail;
}

describe('reads of the V1 order answer', () => {
  it('destructured: order_reference becomes reference under the same local name', () => {
    const r = rewrite(create('  const { order_reference } = await res.json();\n  return order_reference;\n'));
    expect(r.output).toContain('const { reference: order_reference } = (await partnerPrint.createOrder(');
    expect(todos(r.output)).toBe(0);
  });

  it('a field the V2 create answer does not have ({ order: { reference } }), destructured too: left on V1', () => {
    const detail = leftOnV1(
      create(
        '  const { order_reference: ref, status, tracking_code } = await res.json();\n  return [ref, status, tracking_code];\n',
      ),
    );
    expect(detail).toMatch(
      /^V1 call left as it is: it reads `status` of the V1 order answer; .*\{ order: \{ reference \} \}/,
    );
  });

  it('a rest element of a destructuring of the variable that holds it: left on V1', () => {
    const detail = leftOnV1(
      create(
        '  const data = await res.json();\n  const { order_reference: ref, ...rest } = data;\n  return [ref, rest];\n',
      ),
    );
    expect(detail).toMatch(/`\.\.\.rest`/);
  });

  it('a computed or optional read of order_reference is mapped like a plain one; a computed name is left on V1', () => {
    const r = rewrite(
      create(
        "  const data = await res.json();\n  return [data['order_reference'], data?.order_reference];\n",
      ),
    );
    expect(r.output).toContain('return [data.reference, data?.reference];');
    expect(todos(r.output)).toBe(0);
    expect(leftOnV1(create('  const data = await res.json();\n  return data[field];\n'))).toMatch(
      /by a computed name/,
    );
  });

  it('the answer used as a whole (returned, passed on, spread) is left on V1: its fields changed', () => {
    for (const use of [
      '  return await res.json();\n',
      '  const data = await res.json();\n  return data;\n',
      '  const data = await res.json();\n  save(data);\n',
      '  const data = await res.json();\n  return { ...data, ok: true };\n',
    ])
      expect(leftOnV1(create(use)), use).toMatch(/as a whole/);
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
