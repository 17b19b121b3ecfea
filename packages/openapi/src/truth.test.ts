/**
 * Issue 23 ("the spec tells the whole truth"): what independent tools found missing, written as checks on the
 * bundled spec so that a regression fails here before Prism, Spectral or a generator see it.
 */
import { describe, expect, test } from 'vitest';
import { spec } from './index.ts';

type Json = Record<string, unknown>;

const components = spec.components as Record<string, Record<string, Json>>;

function deref(value: unknown): Json {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as Json;
  const [kind, name] = ref.split('/').slice(2);
  return components[kind!]![name!]!;
}

function operation(path: string, method = 'get'): Json & { responses: Record<string, unknown> } {
  return spec.paths[path]![method] as Json & { responses: Record<string, unknown> };
}

const allOperations = Object.entries(spec.paths).flatMap(([path, item]) =>
  ['get', 'post', 'put', 'patch', 'delete']
    .filter((method) => item[method])
    .map((method) => ({ name: `${method.toUpperCase()} ${path}`, op: operation(path, method) })),
);

describe('1. media endpoints declare the image types they answer', () => {
  test.each([
    '/renders/{renderReference}/media',
    '/renders/{renderReference}/thumbnail',
    '/products/{productReference}/media/{filename}',
  ])('%s', (path) => {
    const content = deref(operation(path).responses['200']).content as Json;
    expect(Object.keys(content).sort()).toEqual(['application/octet-stream', 'image/jpeg', 'image/png']);
  });
});

describe('2. every list endpoint takes cursor and answers nextCursor', () => {
  const lists = {
    '/items': 'ItemList',
    '/scenes': 'SceneList',
    '/perspectives': 'PerspectiveList',
    '/claimcategories': 'ClaimcategoryList',
    '/orders': 'OrderList',
    '/claims': 'ClaimList',
  };
  test.each(Object.entries(lists))('%s', (path, schemaName) => {
    const names = ((operation(path).parameters as unknown[]) ?? []).map((p) => deref(p).name);
    expect(names).toContain('cursor');
    const schema = components.schemas![schemaName] as { required: string[] };
    expect(schema.required).toContain('nextCursor');
  });
});

describe('3. rate-limit headers are required on every authenticated response', () => {
  test.each(allOperations.map((o) => [o.name, o.op] as const))('%s', (_name, op) => {
    for (const [status, ref] of Object.entries(op.responses)) {
      const headers = (deref(ref).headers ?? {}) as Record<string, unknown>;
      for (const name of ['X-RateLimit', 'X-RateLimit-Policy']) {
        // 401 answers a request without a valid key: not an authenticated response.
        expect([status, name, deref(headers[name]).required]).toEqual([status, name, status !== '401']);
      }
    }
  });
});

describe('4. servers', () => {
  const servers = spec.servers as { url: string; variables?: Record<string, { default: string }> }[];
  test('the first server is a literal URL a generated client can call (the local sandbox)', () => {
    expect(servers[0]!.url).toBe('http://127.0.0.1:4010/v2');
    expect(new URL(servers[0]!.url).pathname).toBe('/v2');
  });
  test('production and test are variables whose defaults are usable URLs ending in /v2', () => {
    const variables = servers.flatMap((s) => Object.entries(s.variables ?? {}));
    expect(variables.map(([name]) => name).sort()).toEqual(['base_url', 'test_base_url']);
    for (const [, variable] of variables) expect(new URL(variable.default).pathname).toBe('/v2');
  });
});
