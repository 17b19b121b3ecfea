// The spec (packages/openapi, written from the reference by someone else) and this package must agree
// on the callback's wire format. Imported by path: @partner-print/openapi is not a dependency of
// this package, and the test only reads the generated document.
import { describe, expect, it } from 'vitest';
import { spec } from '../../openapi/src/generated/spec.ts';
import { ALIASES, ORDER_REFERENCE_V2_PATTERN, PARAMETERS } from '../src/index.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  deprecated?: boolean;
  schema: { $ref?: string; pattern?: string; enum?: string[] };
}

const operation = (spec.webhooks.orderUpdated as { get: { parameters: Parameter[] } }).get;
const byName = new Map(operation.parameters.map((p) => [p.name, p]));

describe('the orderUpdated webhook of the spec', () => {
  it('has exactly the query parameters the parser reads', () => {
    expect(operation.parameters.every((p) => p.in === 'query')).toBe(true);
    expect(new Set(byName.keys())).toEqual(
      new Set([...Object.values(PARAMETERS), ...Object.values(ALIASES)]),
    );
  });

  it('marks the same parameters required and the same ones deprecated', () => {
    const required = operation.parameters.filter((p) => p.required).map((p) => p.name);
    // The ones sent always: the four the parser needs, and store_code's alias, sent with it (the parser
    // reads the alias only when store_code is missing, so it does not need it).
    expect(new Set(required)).toEqual(
      new Set([
        PARAMETERS.environment,
        PARAMETERS.orderReference,
        PARAMETERS.orderReferenceV2,
        PARAMETERS.storeCode,
        ALIASES.storeCode,
      ]),
    );
    const deprecated = operation.parameters.filter((p) => p.deprecated).map((p) => p.name);
    expect(new Set(deprecated)).toEqual(new Set(Object.values(ALIASES)));
  });

  it('agrees on the environment values and the V2 reference pattern', () => {
    expect(byName.get(PARAMETERS.environment)!.schema.enum).toEqual(['prod', 'test']);
    const ref = byName.get(PARAMETERS.orderReferenceV2)!.schema.$ref!;
    const schema = spec.components.schemas![ref.split('/').at(-1)!] as { pattern: string };
    // The parser accepts every reference the spec's pattern does (and more: the alphabet is not shown).
    expect(schema.pattern).toMatch(/^\^Order_\[[^\]]+\]\{26\}\$$/);
    const alphabet = [...schema.pattern.match(/\[([^\]]+)\]/)![1]!.matchAll(/(.)-(.)|(.)/g)].flatMap((m) =>
      m[3] !== undefined
        ? [m[3]]
        : Array.from({ length: m[2]!.charCodeAt(0) - m[1]!.charCodeAt(0) + 1 }, (_, i) =>
            String.fromCharCode(m[1]!.charCodeAt(0) + i),
          ),
    );
    expect(alphabet.length).toBeGreaterThan(60);
    for (const ch of alphabet) expect(`Order_${ch.repeat(26)}`).toMatch(ORDER_REFERENCE_V2_PATTERN);
  });

  it('accepts every V1 reference the parser accepts', () => {
    const pattern = new RegExp(byName.get(PARAMETERS.orderReference)!.schema.pattern!);
    for (const ok of ['ACME-1', 'AC-ME-0042', 'a_b-12345678901234567890']) expect(ok).toMatch(pattern);
  });
});
