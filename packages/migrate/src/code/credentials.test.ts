import { describe, expect, it } from 'vitest';
import { rewriteTwice } from '../../test/rewrite.ts';

const BASE = `const BASE = 'https://api.partner-print.example/v1';\n`;
const order = (name: string, headers: string) =>
  `export async function ${name}(body: unknown) {\n  const res = await fetch(\`\${BASE}/orders\`, { method: 'POST', headers: ${headers}, body: JSON.stringify(body) });\n  return (await res.json()).reference;\n}\n`;

const rewrite = (text: string) => rewriteTwice(text);
const rewritten = (r: ReturnType<typeof rewrite>) =>
  r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.line);

describe('V1 credentials of two organizations in one file', () => {
  it('the calls with other credentials than the first rewritten one are marked, not sent with its key', () => {
    const r = rewrite(
      `${BASE}const EU = { 'X-Partner-Code': 'SHOP-EU', 'X-Api-Key': process.env.PP_KEY_EU ?? '' };\nconst US = { 'X-Partner-Code': 'SHOP-US', 'X-Api-Key': process.env.PP_KEY_US ?? '' };\n${order('orderEu', 'EU')}${order('orderUs', 'US')}`,
    );
    expect(rewritten(r)).toEqual([5]);
    const us = r.findings.find((f) => f.line === 9 && f.what.startsWith('POST'));
    expect(us?.kind).toBe('todo');
    expect(us?.detail).toMatch(/^V1 call left as it is: it sends other V1 credentials than /);
    expect(us?.detail).not.toContain('SHOP-US');
    expect(r.output).toContain('headers: US');
  });

  it('one key under another partner code, or one partner code with another key: marked too', () => {
    for (const [a, b] of [
      [
        `{ 'X-Partner-Code': 'A', 'X-Api-Key': process.env.K1 }`,
        `{ 'X-Partner-Code': 'B', 'X-Api-Key': process.env.K1 }`,
      ],
      [
        `{ 'X-Partner-Code': 'A', 'X-Api-Key': process.env.K1 }`,
        `{ 'x-partner-code': 'A', 'x-api-key': process.env.K2 }`,
      ],
    ]) {
      const r = rewrite(`${BASE}${order('one', a!)}${order('two', b!)}`);
      expect(rewritten(r), b).toEqual([3]);
    }
  });

  it('the same credentials, written out twice or through one constant, are one organization: all rewritten', () => {
    const same = `{ 'X-Partner-Code': 'A', 'X-Api-Key': process.env.K1 ?? '' }`;
    const twice = rewrite(
      `${BASE}${order('one', same)}${order('two', same.replace('X-Api-Key', 'x-api-key'))}`,
    );
    expect(rewritten(twice)).toEqual([3, 7]);
    // A call with no credentials in sight, on the base URL of calls with them, is not another organization.
    const bare = rewrite(
      `${BASE}${order('one', same)}${order('two', "{ 'Content-Type': 'application/json' }")}`,
    );
    expect(rewritten(bare)).toEqual([3, 7]);
    const constant = rewrite(`${BASE}const H = ${same};\n${order('one', 'H')}${order('two', '{ ...H }')}`);
    expect(rewritten(constant)).toEqual([4, 8]);
  });

  it('one key read from the environment in different spellings is one organization: all rewritten', () => {
    const plain = `{ 'X-Partner-Code': 'A', 'X-Api-Key': process.env.K1 }`;
    for (const spelling of [
      "process.env.K1 ?? ''",
      "process.env.K1 || ''",
      'String(process.env.K1)',
      `\`\${process.env.K1}\``,
      "process.env['K1']",
      'process.env.K1!',
      '(process.env.K1 as string)',
    ]) {
      const other = `{ "X-Partner-Code": \`A\`, 'X-Api-Key': ${spelling} }`;
      const r = rewrite(`${BASE}${order('one', plain)}${order('two', other)}`);
      expect(rewritten(r), spelling).toEqual([3, 7]);
      expect(r.output, spelling).not.toContain('TODO');
      // Through a constant too.
      const constant = rewrite(
        `${BASE}const KEY = ${spelling};\n${order('one', plain)}${order('two', other.replace(spelling, 'KEY'))}`,
      );
      expect(rewritten(constant), spelling).toEqual([4, 8]);
    }
  });

  it('another variable, or a fallback that is not empty, is still another organization', () => {
    for (const spelling of [
      'process.env.K2',
      "process.env.K1 ?? 'k-other-fallback'",
      'String(process.env.K2)',
      `\`\${process.env.K1}-eu\``,
    ]) {
      const r = rewrite(
        `${BASE}${order('one', `{ 'X-Partner-Code': 'A', 'X-Api-Key': process.env.K1 }`)}${order('two', `{ 'X-Partner-Code': 'A', 'X-Api-Key': ${spelling} }`)}`,
      );
      expect(rewritten(r), spelling).toEqual([3]);
    }
  });
});
