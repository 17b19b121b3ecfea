import { spec } from '@partner-print/openapi';
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from './contract.ts';
import { HOUR, type Setup, setup } from './fixtures.ts';
import { compileAt } from './spec-values.ts';
import { type Json, resolve } from './spec-walk.ts';

/**
 * The sandbox against the spec, generated from the spec: for every JSON request body, the smallest body its
 * schema allows (required fields only, references filled with ones that exist) is accepted with 200; for
 * every required field, the same body without it, with `null` and with a value of another type are refused with
 * a 4xx `{ code, message }`. Ajv on the spec confirms each body is what it is meant to be (allowed or forbidden).
 * Every optional field the body's objects may carry is tried as `null` and as another type too, and the spec's
 * verdict decides: allowed is accepted with 200, forbidden refused with a 4xx (`null` is not "left out").
 */
type Refs = Record<string, string>;
type Path = (string | number)[];

/** A schema with `$ref` followed and `allOf` merged into one object schema. */
function flat(schema: Json): Json {
  const [s] = resolve(schema, '');
  if (!Array.isArray(s.allOf)) return s;
  const parts = (s.allOf as Json[]).map(flat);
  return {
    ...s,
    ...Object.assign({}, ...parts),
    required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    minProperties: Math.max(0, ...parts.map((p) => Number(p.minProperties ?? 0))),
  };
}

/** How many alternatives (`oneOf`) the body has, at most, anywhere among its required fields. */
function alternatives(schema: Json): number {
  const s = flat(schema);
  if (Array.isArray(s.oneOf)) return Math.max(...(s.oneOf as Json[]).map(alternatives), s.oneOf.length);
  if (s.type === 'array') return alternatives(s.items as Json);
  const props = (s.properties ?? {}) as Record<string, Json>;
  return Math.max(1, ...((s.required as string[] | undefined) ?? []).map((k) => alternatives(props[k]!)));
}

/** The smallest value a schema allows (`choice` picks among `oneOf` alternatives). */
function minimal(schema: Json, refs: Refs, choice: number): unknown {
  const s = flat(schema);
  if (Array.isArray(s.oneOf)) return minimal(s.oneOf[choice % s.oneOf.length] as Json, refs, choice);
  if (Array.isArray(s.anyOf)) return minimal(s.anyOf[0] as Json, refs, choice);
  if (Array.isArray(s.enum)) return s.enum[0];
  const prefix = s['x-reference-prefix'];
  if (typeof prefix === 'string') return refs[prefix] ?? `${prefix}_${'0'.repeat(26)}`;
  switch (s.type) {
    case 'string':
      return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Number(s.minItems ?? 0) }, () => minimal(s.items as Json, refs, choice));
    default:
      return minimalObject(s, refs, choice);
  }
}

function minimalObject(s: Json, refs: Refs, choice: number): Json {
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = (s.required as string[] | undefined) ?? [];
  const optional = Object.keys(props).filter((k) => !required.includes(k) && (props[k] as unknown) !== false);
  const keys = [
    ...required,
    ...optional.slice(0, Math.max(0, Number(s.minProperties ?? 0) - required.length)),
  ];
  return Object.fromEntries(keys.map((k) => [k, minimal(props[k]!, refs, choice)]));
}

/** Every required field reached through the value (objects' required keys, arrays' first item). */
function requiredFields(schema: Json, value: unknown, choice: number, at: Path = []): [Path, Json][] {
  const s = flat(schema);
  if (Array.isArray(s.oneOf))
    return requiredFields(s.oneOf[choice % s.oneOf.length] as Json, value, choice, at);
  if (Array.isArray(value))
    return value.length ? requiredFields(s.items as Json, value[0], choice, [...at, 0]) : [];
  if (typeof value !== 'object' || value === null) return [];
  const props = (s.properties ?? {}) as Record<string, Json>;
  return ((s.required as string[] | undefined) ?? []).flatMap((k): [Path, Json][] => [
    [[...at, k], props[k]!],
    ...requiredFields(props[k]!, (value as Json)[k], choice, [...at, k]),
  ]);
}

type Field = { path: Path; schema: Json; required: boolean };

/**
 * Every field the body's objects may carry (`false` ones, which must be absent, left out), at each object the
 * value holds (arrays: their first item).
 */
function everyField(schema: Json, value: unknown, choice: number, at: Path = []): Field[] {
  const s = flat(schema);
  if (Array.isArray(s.oneOf)) return everyField(s.oneOf[choice % s.oneOf.length] as Json, value, choice, at);
  if (Array.isArray(value))
    return value.length ? everyField(s.items as Json, value[0], choice, [...at, 0]) : [];
  if (typeof value !== 'object' || value === null) return [];
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = (s.required as string[] | undefined) ?? [];
  const known = Object.keys(props).filter((k) => (props[k] as unknown) !== false);
  const own = known.map((k) => ({ path: [...at, k], schema: props[k]!, required: required.includes(k) }));
  const nested = known
    .filter((k) => k in (value as Json))
    .flatMap((k) => everyField(props[k]!, (value as Json)[k], choice, [...at, k]));
  return [...own, ...nested];
}

const optionalFields = (schema: Json, value: unknown, choice: number) =>
  everyField(schema, value, choice).filter((f) => !f.required);

/**
 * Values at the edges of a field's size: a plain string (no pattern, enum or reference) at its `maxLength` and
 * one over it, or 2000 characters when the spec sets no maximum; an integer at its `maximum` and one over it.
 */
function edges(schema: Json): unknown[] {
  const s = flat(schema);
  if (s.type === 'string' && !s.pattern && !s.enum && !s['x-reference-prefix']) {
    const max = s.maxLength === undefined ? undefined : Number(s.maxLength);
    return max === undefined ? ['x'.repeat(2000)] : ['x'.repeat(max), 'x'.repeat(max + 1)];
  }
  if (s.type === 'integer' && s.maximum !== undefined) return [Number(s.maximum), Number(s.maximum) + 1];
  return [];
}

/** A value of another JSON type than the schema's. */
function otherType(schema: Json): unknown {
  const s = flat(schema);
  const type = Array.isArray(s.anyOf) ? flat(s.anyOf[0] as Json).type : (s.type ?? 'object');
  return type === 'string' ? 12345 : type === 'integer' || type === 'number' ? '1' : 'x';
}

/** A copy of the body with the field at `path` removed (`undefined`) or replaced. */
function changed(body: unknown, path: Path, to: unknown): unknown {
  const copy = structuredClone(body) as Json;
  const parent = path.slice(0, -1).reduce<Json>((node, key) => node[key as string] as Json, copy);
  const last = path[path.length - 1] as string;
  if (to === undefined) delete parent[last];
  else parent[last] = to;
  return copy;
}

/** References that exist, by prefix: a fresh order shipped 49 hours ago (claims need an old shipment). */
async function existing(s: Setup): Promise<Refs> {
  const { orderReference, shipmentReference } = await s.shipped();
  await s.sandbox.control.advance(49 * HOUR);
  return {
    Store: s.seed.stores.combined,
    Product: s.seed.products.nonPrint,
    Image: await s.image(),
    Evidence: await s.evidence(),
    Order: orderReference,
    Shipment: shipmentReference,
    Claimcategory: s.seed.claimcategories.wrongItem,
    Composition: s.seed.compositions.available,
  };
}

const pointerKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const operations = Object.entries(spec.paths as Record<string, Json>).flatMap(([path, item]) => {
  const body = (item.post as Json | undefined)?.requestBody as Json | undefined;
  const schema = ((body?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  if (!schema) return [];
  const pointer = `/paths/${pointerKey(path)}/post/requestBody/content/application~1json/schema`;
  return [{ path, schema: schema as Json, valid: compileAt(pointer) }];
});

describe('the sandbox accepts what the spec allows and refuses what it forbids (JSON request bodies)', () => {
  it('finds the operations to check in the spec', () => {
    expect(operations.map((o) => o.path).sort()).toEqual([
      '/claim-item-issues',
      '/claim-package-missing',
      '/orders',
      '/renders',
    ]);
  });

  for (const { path, schema, valid } of operations) {
    for (let choice = 0; choice < alternatives(schema); choice++) {
      it(`POST ${path}: the smallest body${choice ? ` (alternative ${choice + 1})` : ''} and each required field`, async () => {
        const s = setup({ rateLimits: false });
        const body = minimal(schema, await existing(s), choice);
        expect(valid(body), JSON.stringify(valid.errors)).toBe(true);
        const accepted = await s.a.post(path, body);
        expect(accepted.status, await accepted.clone().text()).toBe(200);

        for (const [field, fieldSchema] of requiredFields(schema, body, choice)) {
          for (const to of [undefined, null, otherType(fieldSchema)]) {
            const wrong = changed(minimal(schema, await existing(s), choice), field, to);
            expect(valid(wrong), `${field.join('.')} → ${JSON.stringify(to)}`).toBe(false);
            const res = await s.a.post(path, wrong);
            const what = `${field.join('.')} ${to === undefined ? 'missing' : `as ${JSON.stringify(to)}`}`;
            expect(res.status, what).toBeGreaterThanOrEqual(400);
            expect(res.status, what).toBeLessThan(500);
            await expectErrorBody(res, what);
          }
        }
      });
    }
  }

  for (const { path, schema, valid } of operations) {
    for (let choice = 0; choice < alternatives(schema); choice++) {
      if (optionalFields(schema, minimal(schema, {}, choice), choice).length === 0) continue;
      it(`POST ${path}: each optional field as null or another type${choice ? ` (alternative ${choice + 1})` : ''}`, async () => {
        const s = setup({ rateLimits: false });
        const refs = await existing(s);
        const body = minimal(schema, refs, choice);
        const fields = optionalFields(schema, body, choice);
        // Every disagreement at once: the field, the value, the spec's verdict and the sandbox's answer.
        const disagreements: string[] = [];
        for (const { path: field, schema: fieldSchema } of fields) {
          for (const to of [null, otherType(fieldSchema)]) {
            const wrong = changed(body, field, to);
            const allowed = valid(wrong);
            const res = await s.a.post(path, wrong);
            const refused = res.status >= 400 && res.status < 500;
            if (refused) await expectErrorBody(res, field.join('.'));
            if (allowed ? res.status !== 200 : !refused) {
              const verdict = allowed ? 'allows' : 'forbids';
              disagreements.push(
                `${field.join('.')} as ${JSON.stringify(to)}: the spec ${verdict} it, the sandbox answers ${res.status}`,
              );
            }
          }
        }
        expect(disagreements).toEqual([]);
      });
    }
  }

  for (const { path, schema, valid } of operations) {
    for (let choice = 0; choice < alternatives(schema); choice++) {
      const sized = everyField(schema, minimal(schema, {}, choice), choice).filter(
        (f) => edges(f.schema).length,
      );
      if (sized.length === 0) continue;
      it(`POST ${path}: each string and integer field at the edges of its size${choice ? ` (alternative ${choice + 1})` : ''}`, async () => {
        const s = setup({ rateLimits: false });
        const disagreements: string[] = [];
        for (const { path: field, schema: fieldSchema } of sized) {
          for (const to of edges(fieldSchema)) {
            // Fresh references each time: an accepted claim holds its shipment's quantity.
            const body = changed(minimal(schema, await existing(s), choice), field, to);
            const allowed = valid(body);
            const res = await s.a.post(path, body);
            const refused = res.status >= 400 && res.status < 500;
            if (allowed ? res.status !== 200 : !refused) {
              const size = typeof to === 'string' ? `${to.length} characters` : String(to);
              const verdict = allowed ? 'allows' : 'forbids';
              disagreements.push(
                `${field.join('.')} of ${size}: the spec ${verdict} it, the sandbox answers ${res.status} ${await res.text()}`,
              );
            }
          }
        }
        expect(disagreements).toEqual([]);
      });
    }
  }

  it('one evidence reference twice in a list: the spec forbids it, as the sandbox refuses it', async () => {
    const s = setup({ rateLimits: false });
    const refs = await existing(s);
    const twice = [refs.Evidence, refs.Evidence];
    const bodies: Array<[string, Json]> = [
      ['/claim-package-missing', { claim: { shipmentReference: refs.Shipment, evidenceReferences: twice } }],
      [
        '/claim-item-issues',
        {
          claim: {
            shipmentReference: refs.Shipment,
            orderReference: refs.Order,
            claimlines: [
              {
                orderlineIndex: 0,
                quantity: 1,
                claimcategoryReference: refs.Claimcategory,
                evidenceReferences: twice,
              },
            ],
          },
        },
      ],
    ];
    for (const [path, body] of bodies) {
      const res = await s.a.post(path, body);
      expect(await res.json(), path).toMatchObject({ code: 'evidence_in_use' });
      expect(operations.find((o) => o.path === path)!.valid(body), path).toBe(false);
    }
  });

  for (const { path, schema } of operations) {
    it(`POST ${path}: a body under a content type the spec does not declare is refused with 415`, async () => {
      const s = setup({ rateLimits: false });
      const text = JSON.stringify(minimal(schema, await existing(s), 0));
      const send = (body: BodyInit, type?: string) =>
        s.a.raw(path, { method: 'POST', body, headers: type ? { 'Content-Type': type } : {} });
      // A string body without a Content-Type goes out as text/plain (fetch's default); bytes go out without one.
      const answers = [
        await send(text),
        await send(new TextEncoder().encode(text)),
        await send(text, 'application/x-www-form-urlencoded'),
      ];
      for (const res of answers) {
        expect(res.status).toBe(415);
        expect(await res.json()).toMatchObject({ code: 'unsupported_content_type' });
      }
      expect((await send(text, 'Application/JSON; charset=utf-8')).status).toBe(200);
    });
  }
});
