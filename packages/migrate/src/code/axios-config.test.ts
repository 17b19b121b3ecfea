import { describe, expect, it } from 'vitest';
import { rewriteTwice } from '../../test/rewrite.ts';

const INSTANCE = `import axios from 'axios';\nconst api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY } });\n`;
const CREATE = `export async function createOrder(body: unknown) {\n  const { data } = await api.post('/orders', body);\n  return data.order_reference;\n}\n`;

const rewrite = (text: string) => rewriteTwice(text);

describe('axios configured outside its config object', () => {
  it.each([
    [
      'a request interceptor (an Idempotency-Key header)',
      `api.interceptors.request.use((config) => {\n  config.headers['Idempotency-Key'] = crypto.randomUUID();\n  return config;\n});\n`,
    ],
    [
      'a response interceptor (a retry)',
      `api.interceptors.response.use(undefined, (error) => (error.response?.status === 503 ? api.request(error.config) : Promise.reject(error)));\n`,
    ],
    [
      'defaults set on the instance',
      `api.defaults.timeout = 2000;\napi.defaults.headers.common['X-Request-Source'] = 'shop';\n`,
    ],
  ])('%s: the calls through it are marked, not rewritten without it', (_, setup) => {
    const r = rewrite(`${INSTANCE}${setup}${CREATE}`);
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
    expect(r.output).not.toContain('createClient');
    const call = r.findings.find((f) => f.what.startsWith('POST /orders'));
    expect(call?.detail).toMatch(/^V1 call left as it is: .*\b(interceptors|defaults)\b/);
  });

  it('the global axios set up through axios.defaults: its V1 calls are found and marked, so --check sees them', () => {
    const r = rewrite(
      `import axios from 'axios';\n\naxios.defaults.baseURL = 'https://api.partner-print.example/v1';\naxios.defaults.headers.common['X-Partner-Code'] = 'ACME';\naxios.defaults.headers.common['X-Api-Key'] = process.env.PP_API_KEY!;\n\nexport async function getOrder(ref: string) {\n  const { data } = await axios.get(\`/orders/\${ref}\`);\n  return data.order_reference;\n}\n`,
    );
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
    const call = r.findings.find((f) => f.what.startsWith('GET /orders/'));
    expect(call?.kind).toBe('todo');
    expect(call?.detail).toContain('defaults');
    expect(r.findings.some((f) => f.what === 'V1 base URL')).toBe(true);
  });

  it('an instance with neither is still rewritten', () => {
    const r = rewrite(`${INSTANCE}${CREATE}`);
    expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
      'POST /orders (axios)',
    ]);
  });
});
