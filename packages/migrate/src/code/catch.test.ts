import { describe, expect, it } from 'vitest';
import { rewriteTwice } from '../../test/rewrite.ts';

const HEAD = `import axios from 'axios';\nconst api = axios.create({ baseURL: 'https://api.partner-print.example/v1', headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY } });\n`;
/** A V1 order read inside a try, with the catch clause given. */
const inTry = (handler: string) =>
  `${HEAD}export async function findOrder(ref: string) {\n  try {\n    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n    return data.reference;\n  } ${handler}\n}\n`;

const rewrite = (text: string) => rewriteTwice(text);

describe('a V1 call inside a try whose catch reads the error', () => {
  it.each([
    [
      'axios: e.response.status',
      'catch (e: any) {\n    if (e.response && e.response.status === 404) return null;\n    throw e;\n  }',
      '`e.response`',
    ],
    [
      'optional chaining',
      'catch (err) {\n    if ((err as any)?.response?.status === 404) return null;\n    throw err;\n  }',
      '`err.response`',
    ],
    [
      'a cast to the V1 error type',
      'catch (e) {\n    const status = (e as AxiosError).response?.status;\n    return status === 404 ? null : Promise.reject(e);\n  }',
      '`e.response`',
    ],
    [
      'axios.isAxiosError',
      'catch (e) {\n    if (axios.isAxiosError(e)) return null;\n    throw e;\n  }',
      'axios.isAxiosError',
    ],
    [
      "the library's error class",
      'catch (e) {\n    if (e instanceof HTTPError) return null;\n    throw e;\n  }',
      'instanceof HTTPError',
    ],
    [
      'destructured',
      'catch ({ response }) {\n    return response?.status === 404 ? null : undefined;\n  }',
      'destructures',
    ],
    [
      "the error's code",
      "catch (e: any) {\n    if (e.code === 'ECONNABORTED') return null;\n    throw e;\n  }",
      '`e.code`',
    ],
  ])('%s: marked, not rewritten (the V2 client throws PartnerPrintError)', (_, handler, named) => {
    const r = rewrite(inTry(handler));
    expect(r.output).not.toContain('createClient');
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
    const call = r.findings.find((f) => f.what.startsWith('GET'));
    expect(call?.detail).toMatch(/^V1 call left as it is: it is inside a try whose catch /);
    expect(call?.detail).toContain(named);
    expect(call?.detail).toContain('PartnerPrintError');
  });

  it.each([
    [
      'a try around a call of its function',
      `async function getOrder(ref: string) {\n  const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n  return data.reference;\n}\nexport async function show(ref: string) {\n  try {\n    return await getOrder(ref);\n  } catch (e: any) {\n    if (e.response?.status === 404) return null;\n    throw e;\n  }\n}\n`,
    ],
    [
      'a retry helper of the file that calls it (passed as a callback) inside a try',
      `async function withRetry<T>(fn: () => Promise<T>, n = 3): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e: any) {
      if (i < n && e.response?.status >= 500) continue;
      throw e;
    }
  }
}
export async function getOrder(ref: string) {
  return withRetry(async () => {
    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);
    return data.reference;
  });
}
`,
    ],
    [
      'a try around the call of the function it is passed to',
      `export async function getOrders(refs: string[]) {
  try {
    return await Promise.all(
      refs.map(async (ref) => {
        const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);
        return data.reference;
      }),
    );
  } catch (e: any) {
    if (e.response?.status === 404) return [];
    throw e;
  }
}
`,
    ],
    [
      'a .catch on the Promise.all its callbacks are passed to',
      `export function getOrders(refs: string[]) {
  return Promise.all(
    refs.map(async (ref) => {
      const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);
      return data.reference;
    }),
  ).catch((e) => (e.response?.status === 404 ? [] : Promise.reject(e)));
}
`,
    ],
    [
      'a .catch on a call of its method',
      `export class Shop {\n  async getOrder(ref: string) {\n    const { data } = await api.get(\`/orders?partner_reference=\${ref}\`);\n    return data.reference;\n  }\n  show(ref: string) {\n    return this.getOrder(ref).catch((err) => (err.response?.status === 404 ? null : Promise.reject(err)));\n  }\n}\n`,
    ],
  ])('%s whose catch reads the error: marked too', (_, code) => {
    const r = rewrite(`${HEAD}${code}`);
    expect(r.findings.filter((f) => f.kind === 'rewritten')).toEqual([]);
    const call = r.findings.find((f) => f.what.startsWith('GET'));
    expect(call?.detail).toMatch(/^V1 call left as it is: it is called .*catch .*reads `(e|err)\.response`/);
  });

  it.each([
    ['logs it and gives up', "catch (e) {\n    console.error('lookup failed', e);\n    return null;\n  }"],
    [
      'logs its message and rethrows',
      "catch (e: any) {\n    logger.warn('lookup failed: ' + e.message);\n    throw e;\n  }",
    ],
    ['has no binding', 'catch {\n    return null;\n  }'],
    ['checks it is an Error', 'catch (e) {\n    return e instanceof Error ? null : undefined;\n  }'],
  ])('a catch that %s: rewritten', (_, handler) => {
    const r = rewrite(inTry(handler));
    expect(r.findings.filter((f) => f.kind === 'rewritten').map((f) => f.what)).toEqual([
      'GET /orders?partner_reference=… (axios)',
    ]);
  });
});
