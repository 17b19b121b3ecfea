import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.ts';

const fixture = join(import.meta.dirname, 'fixtures', 'v1-integration');

describe('audit', () => {
  it('prints a checklist with V2 equivalents and file:line', async () => {
    const r = await run(['audit', fixture]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 files scanned');
    expect(r.stdout).toMatch(/## Base URL: \/v1 → \/v2/);
    expect(r.stdout).toMatch(/- \[ \] X-Partner-Code → X-Service-Secret-Key: <secret key>/);
    expect(r.stdout).toMatch(/\s+lib\/client\.js:8:\d+/);
    expect(r.stdout).toMatch(/- \[ \] \/stock → GET \/products, GET \/productgroups, GET \/items/);
    expect(r.stdout).toMatch(/\/stock-attributes → no equivalent/);
    expect(r.stdout).toMatch(/cancel-all-lines → not available in V2/);
    expect(r.stdout).toMatch(/\/render → POST \/renders/);
    expect(r.stdout).toMatch(/partner_reference → customIdentifier/);
    expect(r.stdout).toMatch(/settings\.py:3:\d+/);
  });

  it('--json lists each finding', async () => {
    const r = await run(['audit', fixture, '--json']);
    const { findings } = JSON.parse(r.stdout) as {
      findings: Array<{ file: string; line: number; rule: string }>;
    };
    const at = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line}`);
    expect(at('credentials:partner-code')).toEqual(['lib/client.js:8', 'settings.py:2']);
    expect(at('credentials:api-key')).toEqual(['lib/client.js:9', 'settings.py:2']);
    expect(at('endpoint:stock')).toEqual(['lib/client.js:17']);
    expect(at('endpoint:stock-attributes')).toEqual(['lib/client.js:18']);
    expect(at('endpoint:cancel-all-lines')).toEqual(['lib/client.js:19']);
    expect(at('endpoint:render')).toEqual(['lib/client.js:20']);
    expect(at('endpoint:lookup-by-partner-reference')).toEqual(['lib/client.js:21']);
    expect(at('field:sku')).toEqual(['lib/client.js:28']);
    expect(at('image:base64')).toEqual(['lib/client.js:28']);
    expect(at('field:country_code')).toEqual(['settings.py:3']);
    // Unknown snake_case keys, once per line, and not on lines a known field rule reported.
    expect(at('field:snake_case')).toEqual(['settings.py:4']);
    expect(findings.find((f) => f.rule === 'field:snake_case')).toMatchObject({ match: 'gift_wrap' });
  });
});

describe('audit of a callback handler and response fields', () => {
  const callbackFixture = join(import.meta.dirname, 'fixtures', 'v1-callback');

  it('advises order_reference_v2 and @partner-print/callback, not a rename, for the callback query', async () => {
    const r = await run(['audit', callbackFixture]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 file scanned');
    expect(r.stdout).toMatch(
      /- \[ \] order_reference \(callback parameter\) → order_reference_v2 \(Order_…\).*@partner-print\/callback/,
    );
    expect(r.stdout).toMatch(/callback\.js:3:\d+/);
    // No rename advice for the callback's own parameters.
    expect(r.stdout).not.toMatch(/order_reference → orderReference/);
    expect(r.stdout).not.toMatch(/partner_code → storeReference/);
  });

  it('flags V1 response fields with where their data lives in V2', async () => {
    const { findings } = JSON.parse((await run(['audit', callbackFixture, '--json'])).stdout) as {
      findings: Array<{ rule: string; line: number; v2: string }>;
    };
    expect(findings.find((f) => f.rule === 'response:logical_quantity')).toMatchObject({
      line: 11,
      v2: expect.stringContaining('GET /items'),
    });
    expect(findings.find((f) => f.rule === 'response:tracking_code')).toMatchObject({
      line: 14,
      v2: expect.stringContaining('GET /shipments/{shipmentReference}'),
    });
  });

  it('names every checklist item cleanly, never by a raw code fragment', async () => {
    for (const dir of [fixture, callbackFixture]) {
      const items = (await run(['audit', dir])).stdout.split('\n').filter((l) => l.startsWith('- [ ] '));
      expect(items.length).toBeGreaterThan(3);
      for (const item of items) {
        const title = item.slice(6, item.indexOf(' → '));
        expect(title).toMatch(/^[\w\-/ ().,]+$/);
      }
    }
  });
});
