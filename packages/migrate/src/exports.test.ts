import { describe, expect, it } from 'vitest';
import * as library from './index.ts';
import * as node from './node/index.ts';

/** Each export's name and kind; widening an entry point changes this list on purpose, with the README. */
function surface(mod: Record<string, unknown>): Record<string, string> {
  const kind = (v: unknown) => {
    if (typeof v === 'function')
      return /^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : 'function';
    if (Array.isArray(v)) return 'array';
    return typeof v;
  };
  return Object.fromEntries(Object.entries(mod).map(([k, v]) => [k, kind(v)]));
}

describe('public surface (names documented in the README)', () => {
  it('@partner-print/migrate', () => {
    expect(surface(library)).toEqual({
      AUDIT_RULES: 'array',
      ENDPOINT_MAP: 'array',
      InvalidImageError: 'class',
      RENAMED_FIELDS: 'array',
      UnknownSkuError: 'class',
      V2_KEY_EXPLANATION: 'string',
      auditSource: 'function',
      camelToSnake: 'function',
      convertV1Order: 'function',
      createV1Adapter: 'function',
      createImageUploader: 'function',
      createOrderReferenceResolver: 'function',
      createSkuResolver: 'function',
      decodeBase64Image: 'function',
      detectV1Credentials: 'function',
      fromV2Body: 'function',
      lookupOrderByCustomIdentifier: 'function',
      mapV1Endpoint: 'function',
      parseLegacySku: 'function',
      parseOrderReference: 'function',
      snakeToCamel: 'function',
      toCamelDeep: 'function',
      toSnakeDeep: 'function',
      toV2Body: 'function',
      v1FieldName: 'function',
      v2FieldName: 'function',
    });
  });

  it('@partner-print/migrate/node', () => {
    expect(surface(node)).toEqual({
      GUIDE_URL: 'string',
      TODO_TAG: 'string',
      UsageError: 'class',
      auditDirectory: 'function',
      createFileSkuCache: 'function',
      deriveCustomIdentifier: 'function',
      migrateCode: 'function',
      readJsonLines: 'function',
      readSkuMapping: 'function',
      readSkuRecords: 'function',
      runCli: 'function',
      transformSource: 'function',
    });
  });

  it('documents every exported name in the README', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const name of [...Object.keys(library), ...Object.keys(node)])
      expect(readme).toMatch(new RegExp(`\\b${name}\\b`));
  });
});
