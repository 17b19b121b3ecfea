import { describe, expect, test } from 'vitest';
import { spec } from './index.ts';

type Json = Record<string, unknown>;

const components = spec.components as Record<string, Record<string, Json>>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function deref(value: unknown): Json {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as Json;
  const [, kind, name] = ref.split('/').slice(1);
  return components[kind!]![name!]!;
}

const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({
    name: `${method.toUpperCase()} ${path}`,
    operation: item[method] as Json & { responses: Record<string, unknown> },
  })),
);

describe('conventions every operation follows', () => {
  test.each(operations.map((o) => [o.name, o.operation] as const))('%s', (_name, operation) => {
    expect(operation.summary).toBeTypeOf('string');
    expect(operation.description).toBeTypeOf('string');
    expect(operation.tags).toHaveLength(1);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '429', 'default']));
    for (const [status, ref] of Object.entries(operation.responses)) {
      const response = deref(ref);
      const headers = Object.keys((response.headers as Json | undefined) ?? {});
      expect(headers, `${status} carries the rate-limit headers`).toEqual(
        expect.arrayContaining(['X-RateLimit-Policy', 'X-RateLimit']),
      );
      if (status === '429' || status === '202')
        expect(headers, `${status} carries Retry-After`).toContain('Retry-After');
      if (status === '401' || status === '429' || status === 'default' || /^4/.test(status)) {
        const schema = (response.content as Record<string, { schema: { $ref: string } }>)['application/json']
          ?.schema;
        expect(schema?.$ref, `${status} has the error body`).toBe('#/components/schemas/ErrorBody');
      }
    }
  });
});

describe('deprecations removed in V3', () => {
  test('the legacy SKU lookup is deprecated', () => {
    const lookup = spec.paths['/utilities/lookup-product-by-legacy-sku']?.get as Json;
    expect(lookup.deprecated).toBe(true);
    expect(lookup.description).toMatch(/removed in V3/i);
  });

  test('legacy fields are deprecated', () => {
    const schemas = components.schemas as Record<string, { properties?: Record<string, Json> }>;
    const legacy = Object.entries(schemas).flatMap(([name, schema]) =>
      Object.entries(schema.properties ?? {})
        .filter(([field]) => ['legacyCode', 'legacySku', 'legacyOrderCode'].includes(field))
        .map(([field, property]) => ({ at: `${name}.${field}`, property })),
    );
    expect(legacy.map((l) => l.at)).toEqual(
      expect.arrayContaining(['Order.legacyCode', 'Order.legacyOrderCode', 'OrderlineRequest.legacySku']),
    );
    for (const { at, property } of legacy) {
      expect(property.deprecated, at).toBe(true);
      expect(property.description, at).toMatch(/removed in V3/i);
    }
  });

  test('the callback aliases are deprecated', () => {
    const parameters = (
      spec.webhooks.orderUpdated!.get as { parameters: { name: string; deprecated?: boolean }[] }
    ).parameters;
    const deprecated = parameters.filter((p) => p.deprecated).map((p) => p.name);
    expect(deprecated.sort()).toEqual(['partner_code', 'partner_reference', 'via_partner_code']);
  });
});
