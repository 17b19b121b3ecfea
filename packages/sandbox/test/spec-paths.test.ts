import { spec } from '@partner-print/openapi';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from './contract.ts';
import { setup } from './fixtures.ts';
import { candidates, compileAt, shaped } from './spec-values.ts';
import { type Json, resolve } from './spec-walk.ts';

/**
 * The sandbox against the spec, generated from the spec: for every path parameter of every operation, values
 * built from its schema and near misses of them, classified by the schema itself. A value the spec allows
 * names something or nothing (200/202/204, or 404/410); a value it forbids is refused with 400
 * `{ code, message }`. Values that change the path itself (empty, `.`, `..`) name another endpoint, not a
 * value of the parameter, and are left out.
 */
interface PathParameter {
  name: string;
  schema: Json;
  valid: (value: string) => boolean;
}

const METHODS = ['get', 'post'] as const;

function pathParameters(item: Json, op: Json): PathParameter[] {
  const all = [...((item.parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])];
  return all.flatMap((ref) => {
    const [p, pointer] = resolve(ref, '');
    if (p.in !== 'path') return [];
    const validate = compileAt(`${pointer}/schema`);
    return [{ name: String(p.name), schema: p.schema as Json, valid: (v: string) => validate(v) === true }];
  });
}

const operations = Object.entries(spec.paths as Record<string, Json>).flatMap(([path, item]) =>
  METHODS.flatMap((method) => {
    const op = item[method] as Json | undefined;
    const parameters = op ? pathParameters(item, op) : [];
    return parameters.length === 0 ? [] : [{ method, path, parameters }];
  }),
);

const inPath = (value: string) => value !== '' && value !== '.' && value !== '..';

/** Every reference of the seed (nested records of them) that the parameter's schema allows. */
function seeded(seed: unknown, parameter: PathParameter): string[] {
  if (typeof seed === 'string') return seed.includes('_') && parameter.valid(seed) ? [seed] : [];
  if (typeof seed !== 'object' || seed === null) return [];
  return [...new Set(Object.values(seed).flatMap((v) => seeded(v, parameter)))];
}

describe('the sandbox accepts what the spec allows and refuses what it forbids (path parameters)', () => {
  it('finds the operations to check in the spec', () => {
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'get /orders/{orderReference}',
        'post /claims/{claimReference}/retract',
        'get /renders/{renderReference}/media',
        'get /products/{productReference}/media/{filename}',
      ]),
    );
  });

  for (const { method, path, parameters } of operations) {
    for (const parameter of parameters) {
      it(`${method.toUpperCase()} ${path} with ${parameter.name}=…`, async () => {
        const s = setup({ rateLimits: false });
        const others = parameters.filter((p) => p !== parameter);
        // References that exist (the seed's, of the caller's organization) besides built ones: alone in the
        // path, they answer 200.
        const existing = seeded({ ...s.seed, otherOrganization: undefined }, parameter);
        const values = candidates(parameter.schema).filter(inPath);
        await fc.assert(
          fc.asyncProperty(
            existing.length ? fc.oneof(values, fc.constantFrom(...existing)) : values,
            fc.tuple(...others.map((p) => shaped(p.schema).filter(inPath))),
            async (value, rest) => {
              const named = new Map(others.map((p, i) => [p.name, rest[i] as string]));
              named.set(parameter.name, value);
              const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
                encodeURIComponent(named.get(name) ?? ''),
              );
              const res = method === 'get' ? await s.a.get(url) : await s.a.post(url, {});
              if (existing.includes(value) && others.length === 0 && method === 'get') {
                expect(res.status).toBe(200);
              } else if (parameter.valid(value)) {
                expect([200, 202, 204, 404, 410]).toContain(res.status);
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
