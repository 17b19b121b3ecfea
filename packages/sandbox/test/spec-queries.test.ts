import { spec } from '@partner-print/openapi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';
import { type Json, resolve } from './spec-walk.ts';

/**
 * The sandbox against the spec, generated from the spec: for every query parameter of every GET operation,
 * values built from its schema (patterns, formats, lengths) and near misses of them, classified by the
 * schema itself. A value the spec allows is accepted (200, or 404/410 for what does not exist); a value it
 * forbids is refused with 400 `{ code, message }`. Opaque parameters (`x-opaque`: a cursor the service did not
 * hand out is refused too) are checked on their forbidden values only.
 */
const SPEC_ID = 'https://partner-print.invalid/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(spec as unknown as Json, SPEC_ID);

interface QueryParameter {
  name: string;
  required: boolean;
  schema: Json;
  opaque: boolean;
  valid: ValidateFunction;
}

function queryParameters(item: Json, op: Json): QueryParameter[] {
  const all = [...((item.parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])];
  return all.flatMap((ref) => {
    const [p, pointer] = resolve(ref, '');
    if (p.in !== 'query') return [];
    const [schema] = resolve(p.schema as Json, '');
    const valid = ajv.compile({ $ref: `${SPEC_ID}${pointer || ''}/schema` });
    return [
      {
        name: String(p.name),
        required: p.required === true,
        schema,
        opaque: schema['x-opaque'] === true,
        valid,
      },
    ];
  });
}

/** Values of the shapes a schema describes (by pattern, format, length; through `$ref` and `anyOf`). */
function shaped(schema: Json): fc.Arbitrary<string> {
  const [s] = resolve(schema, '');
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as Json[]).map(shaped));
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
  const instant = fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true });
  if (s.format === 'date') return instant.map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'date-time') {
    return fc
      .tuple(instant, fc.constantFrom('Z', '+02:00', '-05:30', '.5Z'))
      .map(([d, zone]) => d.toISOString().replace(/\.\d+Z$/, zone));
  }
  return fc.string({ minLength: Number(s.minLength ?? 0), maxLength: 40 });
}

/** Shaped values and near misses of them: cut, extended, an empty value, noise. */
function candidates(schema: Json): fc.Arbitrary<string> {
  const good = shaped(schema);
  return fc.oneof(
    good,
    good.map((v) => v.slice(0, -1)),
    good.map((v) => `${v}x`),
    good.map((v) => v.replace(/[0-9]/, 'z')),
    good.map((v) => v.replace('_', '-')),
    fc.constant(''),
    fc.string({ maxLength: 12 }),
  );
}

const operations = Object.entries(spec.paths as Record<string, Json>).flatMap(([path, item]) => {
  const op = item.get as Json | undefined;
  if (!op || path.includes('{')) return [];
  const parameters = queryParameters(item, op);
  return parameters.length === 0 ? [] : [{ path, parameters }];
});

describe('the sandbox accepts what the spec allows and refuses what it forbids (query parameters)', () => {
  it('finds the operations to check in the spec', () => {
    expect(operations.map((o) => o.path)).toEqual(
      expect.arrayContaining(['/orders', '/claims', '/scenes', '/perspectives', '/lookup-composition']),
    );
  });

  for (const { path, parameters } of operations) {
    for (const parameter of parameters) {
      it(`GET ${path}?${parameter.name}=…`, async () => {
        const s = setup({ rateLimits: false });
        const others = parameters.filter((p) => p.required && p !== parameter);
        await fc.assert(
          fc.asyncProperty(
            candidates(parameter.schema),
            fc.tuple(...others.map((p) => shaped(p.schema))),
            async (value, rest) => {
              const query = new URLSearchParams([[parameter.name, value]]);
              for (const [i, p] of others.entries()) query.set(p.name, rest[i] as string);
              const res = await s.a.get(`${path}?${query}`);
              if (parameter.valid(value)) {
                if (!parameter.opaque) expect([200, 404, 410]).toContain(res.status);
              } else {
                expect(res.status).toBe(400);
                const body = await json<{ code: unknown; message: unknown }>(res);
                expect(typeof body.code).toBe('string');
                expect(typeof body.message).toBe('string');
              }
            },
          ),
          { numRuns: 60 },
        );
      });
    }
  }
});
