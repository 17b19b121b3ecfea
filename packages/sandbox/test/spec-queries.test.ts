import { spec } from '@partner-print/openapi';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from './contract.ts';
import { setup } from './fixtures.ts';
import { candidates, compileAt, shaped } from './spec-values.ts';
import { type Json, resolve } from './spec-walk.ts';

/**
 * The sandbox against the spec, generated from the spec: for every query parameter of every GET operation,
 * values built from its schema (patterns, formats, lengths) and near misses of them, classified by the
 * schema itself. A value the spec allows is accepted (200, or 404/410 for what does not exist); a value it
 * forbids is refused with 400 `{ code, message }`. Opaque parameters (`x-opaque`: a cursor the service did not
 * hand out is refused too) are checked on their forbidden values only.
 */
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
    const valid = compileAt(`${pointer || ''}/schema`);
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
                await expectErrorBody(res);
              }
            },
          ),
          { numRuns: 60 },
        );
      });
    }
  }
});
