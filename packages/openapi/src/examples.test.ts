import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { spec } from './index.ts';

type Json = Record<string, unknown>;

const components = spec.components as Record<string, Record<string, Json>>;

/** Schemas of the bundled spec point at `#/components/schemas/X`; as a JSON Schema document they live in `$defs`. */
function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string'
        ? inner.replace('#/components/schemas/', 'https://partner-print.invalid/spec#/$defs/')
        : toJsonSchema(inner);
  }
  return out;
}

function deref<T>(value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const [, kind, name] = value.$ref.split('/').slice(1);
    return components[kind!]![name!] as T;
  }
  return value as T;
}

function createAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  // An OpenAPI annotation; its mapping is checked by Redocly, the `oneOf` it annotates by Ajv.
  ajv.addKeyword('discriminator');
  // The codegen's annotation on reference schemas (their `pattern` is what validates).
  ajv.addKeyword('x-reference-prefix');
  ajv.addSchema({
    $id: 'https://partner-print.invalid/spec',
    $defs: toJsonSchema(components.schemas) as Json,
  });
  return ajv;
}

interface ExampleCase {
  where: string;
  schema: unknown;
  value: unknown;
}

interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown } | { $ref: string }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function collectMediaExamples(): { cases: ExampleCase[]; jsonBodiesWithoutExample: string[] } {
  const cases: ExampleCase[] = [];
  const jsonBodiesWithoutExample: string[] = [];
  const visitContent = (where: string, content: Record<string, MediaType> | undefined) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      const named = Object.entries(media.examples ?? {}).map(
        ([name, ex]) => [name, deref(ex).value] as const,
      );
      if (media.example !== undefined) named.push(['example', media.example]);
      if (mediaType === 'application/json' && named.length === 0) jsonBodiesWithoutExample.push(where);
      for (const [name, value] of named)
        cases.push({ where: `${where} ${mediaType} ${name}`, schema: media.schema, value });
    }
  };
  const operations = [
    ...Object.entries(spec.paths).map(([path, item]) => [path, item] as const),
    ...Object.entries(spec.webhooks).map(([name, item]) => [`webhook ${name}`, item] as const),
  ];
  for (const [path, item] of operations) {
    for (const method of METHODS) {
      const operation = item[method] as
        | { requestBody?: { content?: Record<string, MediaType> }; responses: Record<string, unknown> }
        | undefined;
      if (!operation) continue;
      visitContent(`${method.toUpperCase()} ${path} request`, operation.requestBody?.content);
      for (const [status, response] of Object.entries(operation.responses)) {
        visitContent(
          `${method.toUpperCase()} ${path} ${status}`,
          deref(response as { content?: Record<string, MediaType> }).content,
        );
      }
    }
  }
  return { cases, jsonBodiesWithoutExample };
}

function collectSchemaExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const visit = (where: string, schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const examples = (schema as { examples?: unknown[] }).examples;
    if (Array.isArray(examples)) {
      examples.forEach((value, index) => {
        cases.push({ where: `${where} examples[${index}]`, schema, value });
      });
    }
  };
  for (const [name, schema] of Object.entries(components.schemas ?? {})) visit(`schema ${name}`, schema);
  for (const [name, parameter] of Object.entries(components.parameters ?? {})) {
    visit(`parameter ${name}`, parameter.schema);
  }
  for (const [name, header] of Object.entries(components.headers ?? {}))
    visit(`header ${name}`, header.schema);
  return cases;
}

describe('examples validate against their schemas (Ajv, JSON Schema 2020-12)', () => {
  const ajv = createAjv();
  const { cases, jsonBodiesWithoutExample } = collectMediaExamples();

  test('every JSON request and response body has an example', () => {
    expect(jsonBodiesWithoutExample).toEqual([]);
    expect(cases.length).toBeGreaterThan(40);
  });

  test.each(cases.map((c) => [c.where, c] as const))('%s', (_where, { schema, value }) => {
    const validate = ajv.compile(toJsonSchema(schema) as Json);
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
  });

  test.each(collectSchemaExamples().map((c) => [c.where, c] as const))('%s', (_where, { schema, value }) => {
    const validate = ajv.compile(toJsonSchema(schema) as Json);
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
  });
});

describe('the schemas reject what the reference forbids', () => {
  const ajv = createAjv();
  const validate = (name: string, value: unknown) =>
    ajv.validate(`https://partner-print.invalid/spec#/$defs/${name}`, value);
  const orderline = { productReference: 'Product_EK7ZHPBV3DGMZFQDP1AUWU5X8I', quantity: 1 };
  const base = { storeReference: 'Store_8UD7G0KN8EZ2EOC4373C90HMXT', orderlines: [orderline] };

  test('a dropship order requires an address; a combined order must not have one', () => {
    const address = { city: 'Amsterdam', countryCode: 'NL' };
    expect(validate('OrderRequest', { ...base, shippingKind: 'dropship', dropshipAddress: address })).toBe(
      true,
    );
    expect(validate('OrderRequest', { ...base, shippingKind: 'dropship' })).toBe(false);
    expect(validate('OrderRequest', { ...base, shippingKind: 'combined' })).toBe(true);
    expect(validate('OrderRequest', { ...base, shippingKind: 'combined', dropshipAddress: {} })).toBe(false);
    expect(validate('OrderRequest', { ...base, shippingKind: 'pickup' })).toBe(false);
  });

  test('where the reference decides nothing, the sandbox assumptions', () => {
    const dropship = (extra: Record<string, unknown>) =>
      validate('OrderRequest', {
        ...base,
        shippingKind: 'dropship',
        dropshipAddress: { city: 'Utrecht' },
        ...extra,
      });
    expect(dropship({ dropshipAddress: {} })).toBe(false);
    expect(dropship({ dropshipAddress: { city: 'Utrecht', floor: '3' } })).toBe(false);
    expect(dropship({ dropshipAddress: { countryCode: 'nl' } })).toBe(false);
    expect(dropship({ dropshipAddress: { countryCode: 'NL' } })).toBe(true);
    expect(dropship({ customIdentifier: '' })).toBe(false);
    expect(dropship({ customIdentifier: 'x'.repeat(256) })).toBe(false);
    expect(dropship({ customIdentifier: 'x'.repeat(255) })).toBe(true);
    expect(dropship({ dropshipMinimalShippingLevel: 'tracked' })).toBe(true);
    expect(dropship({ dropshipMinimalShippingLevel: 'express' })).toBe(true);
    expect(dropship({ dropshipMinimalShippingLevel: 1 })).toBe(false);
  });

  test('claim limits', () => {
    const evidence = 'Evidence_OK76PN1WG96TRTXLE0U8HOK9B1';
    const shipmentReference = 'Shipment_D793KOVZ3V7IXV026Q1JBTGXZ7';
    expect(validate('PackageMissingClaimRequest', { shipmentReference, evidenceReferences: [] })).toBe(true);
    expect(
      validate('PackageMissingClaimRequest', {
        shipmentReference,
        evidenceReferences: Array(4).fill(evidence),
      }),
    ).toBe(false);
    const claim = {
      shipmentReference,
      orderReference: 'Order_HVGT82HTHLMGVK4N9XP02EUR5L',
      claimlines: [
        {
          orderlineIndex: 0,
          quantity: 1,
          claimcategoryReference: 'Claimcategory_TGCRN1G07RPZ441WIHK0FI6D80',
          evidenceReferences: [],
        },
      ],
    };
    expect(validate('ItemIssuesClaimRequest', claim)).toBe(true);
    expect(validate('ItemIssuesClaimRequest', { ...claim, comment: 'x'.repeat(1001) })).toBe(false);
    expect(
      validate('ItemIssuesClaimRequest', { ...claim, claimlines: [{ ...claim.claimlines[0], quantity: 0 }] }),
    ).toBe(false);
  });

  test('error codes are an open set', () => {
    expect(validate('ErrorBody', { code: 'rate_limited', message: 'slow down' })).toBe(true);
    expect(validate('ErrorBody', { code: 'something_new', message: 'new', extra: 1 })).toBe(true);
    expect(validate('ErrorBody', { message: 'no code' })).toBe(false);
  });

  test('references carry their prefix', () => {
    expect(validate('OrderReference', 'Order_HVGT82HTHLMGVK4N9XP02EUR5L')).toBe(true);
    expect(validate('OrderReference', 'Claim_TJPQGS3NWFG61C2KCN6D3P87ES')).toBe(false);
  });
});
