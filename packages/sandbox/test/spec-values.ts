/** Values built from the bundled spec's schemas, and the spec's own verdict on a value (Ajv on the spec). */
import { spec } from '@partner-print/openapi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { type Json, resolve } from './spec-walk.ts';

const SPEC_ID = 'https://partner-print.invalid/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(spec as unknown as Json, SPEC_ID);

/** A validator of the schema at a JSON pointer of the spec (`/components/schemas/…`). */
export function compileAt(pointer: string): ValidateFunction {
  return ajv.compile({ $ref: `${SPEC_ID}#${pointer.replace(/^#/, '')}` });
}

/** Values of the shapes a schema describes (by pattern, format, length; through `$ref` and `anyOf`). */
export function shaped(schema: Json): fc.Arbitrary<string> {
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
export function candidates(schema: Json): fc.Arbitrary<string> {
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
