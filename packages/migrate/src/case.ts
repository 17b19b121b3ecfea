/**
 * V1 bodies are snake_case with top-level resource data; V2 bodies are lowerCamelCase and wrap a
 * single resource under its name (`{ order: … }`). These helpers convert keys only, never values.
 */

export interface FieldRename {
  /** V1 (snake_case) field name. */
  readonly v1: string;
  /** V2 (lowerCamelCase) field name. */
  readonly v2: string;
  readonly note: string;
}

/**
 * Fields whose V2 name is not the plain camelCase form of the V1 name. The first entry for a V2 name
 * is the one used when converting V2 → V1.
 */
export const RENAMED_FIELDS: readonly FieldRename[] = [
  {
    v1: 'partner_reference',
    v2: 'customIdentifier',
    note: 'The V1 partner reference is the V2 custom identifier; orders are found by it through the custom-identifier lookup.',
  },
  {
    v1: 'custom_reference',
    v2: 'customIdentifier',
    note: 'The legacy callback calls the custom identifier custom_reference.',
  },
];

const V1_TO_V2 = new Map(RENAMED_FIELDS.map((r) => [r.v1, r.v2]));
const V2_TO_V1 = new Map<string, string>();
for (const r of RENAMED_FIELDS) if (!V2_TO_V1.has(r.v2)) V2_TO_V1.set(r.v2, r.v1);

/** `dropship_address` → `dropshipAddress`. Leading/trailing underscores are kept. */
export function snakeToCamel(name: string): string {
  const lead = /^_*/.exec(name)![0];
  const trail = /_*$/.exec(name.slice(lead.length))![0];
  const core = name.slice(lead.length, name.length - trail.length);
  const camel = core.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
  return lead + camel + trail;
}

/** `dropshipAddress` → `dropship_address`; `countryCode` → `country_code`. */
export function camelToSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The V2 name of a V1 field: the rename table first, then plain case conversion. */
export function v2FieldName(v1Name: string): string {
  return V1_TO_V2.get(v1Name) ?? snakeToCamel(v1Name);
}

/** The V1 name of a V2 field: the rename table first, then plain case conversion. */
export function v1FieldName(v2Name: string): string {
  return V2_TO_V1.get(v2Name) ?? camelToSnake(v2Name);
}

export interface KeyConversionOptions {
  /** Apply {@link RENAMED_FIELDS} (default true). */
  renames?: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]));
}

/**
 * Two keys that become one name (`partner_reference` and `custom_reference` both become
 * `customIdentifier`; `foo_bar` and `fooBar`) keep one value when they agree; with different values
 * nothing is guessed: a TypeError names both keys.
 */
function mapKeysDeep(value: unknown, rename: (key: string) => string, path = ''): unknown {
  if (Array.isArray(value)) return value.map((v, i) => mapKeysDeep(v, rename, `${path}[${i}]`));
  if (!isPlainObject(value)) return value;
  const out = new Map<string, unknown>();
  const from = new Map<string, string>();
  for (const [k, v] of Object.entries(value)) {
    const name = rename(k);
    const converted = mapKeysDeep(v, rename, path ? `${path}.${k}` : k);
    const earlier = from.get(name);
    if (earlier !== undefined && !sameValue(out.get(name), converted)) {
      const where = path ? ` in ${path}` : '';
      throw new TypeError(
        `"${earlier}" and "${k}"${where} both become "${name}" but hold different values; keep one of them`,
      );
    }
    from.set(name, k);
    out.set(name, converted);
  }
  // Made by Object.fromEntries, which defines each key: an own `__proto__` key (JSON.parse makes one) stays an own
  // key, where assigning it would set the prototype.
  return Object.fromEntries(out);
}

/** Converts every key, deep through objects and arrays, from snake_case to lowerCamelCase. */
export function toCamelDeep<T = unknown>(value: unknown, options: KeyConversionOptions = {}): T {
  const rename = options.renames === false ? snakeToCamel : v2FieldName;
  return mapKeysDeep(value, rename) as T;
}

/** Converts every key, deep through objects and arrays, from lowerCamelCase to snake_case. */
export function toSnakeDeep<T = unknown>(value: unknown, options: KeyConversionOptions = {}): T {
  const rename = options.renames === false ? camelToSnake : v1FieldName;
  return mapKeysDeep(value, rename) as T;
}

/** V1 top-level resource data → V2 request body: `{ [resource]: camelCased }`. */
export function toV2Body<T = unknown>(resource: string, v1Data: unknown): Record<string, T> {
  return { [resource]: toCamelDeep<T>(v1Data) };
}

/**
 * V2 response body → V1-style top-level data: unwraps `{ [resource]: … }` and snake-cases the keys.
 * A list body (`{ orders: [...], nextCursor }`) is unwrapped with the plural name.
 */
export function fromV2Body<T = unknown>(resource: string, v2Body: unknown): T {
  if (!isPlainObject(v2Body) || !(resource in v2Body)) {
    throw new TypeError(`Expected a V2 body wrapped under "${resource}"`);
  }
  return toSnakeDeep<T>(v2Body[resource]);
}
