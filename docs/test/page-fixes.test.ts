import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../tools/docs/lib/openapi.ts';
import { typeComposedObjects } from '../../tools/docs/lib/schema-display.ts';
import { searchFriendly, spacedCells } from '../../tools/docs/lib/search-text.ts';
import { codeHash, normalizeCode } from '../../tools/docs/runner/loader.ts';
import { readBuiltSpec } from './site-files.ts';

describe('search-friendly markdown (build copy)', () => {
  it('ends each table cell with a no-break space, leaving separators and escaped pipes', () => {
    expect(spacedCells('| shippingKind | yes | `a \\| b` |')).toBe(
      '| shippingKind&nbsp; | yes&nbsp; | `a \\| b`&nbsp; |',
    );
    expect(searchFriendly('| a | b |\n|---|:-:|\n| c | |')).toBe(
      '| a&nbsp; | b&nbsp; |\n|---|:-:|\n| c&nbsp; | |',
    );
  });

  it('joins the wrapped lines of a paragraph and of a list item, nothing else', () => {
    const md = [
      'A `dropship` order; a',
      '`combined` order.',
      '',
      '- one',
      '  more',
      '- two',
      '# Heading',
      'Setext',
      '---',
      '```ts',
      'const a = 1;',
      'const b = 2;',
      '```',
      '',
      '    indented',
      '    code',
      '',
      'hard  ',
      'break',
    ].join('\n');
    expect(searchFriendly(md).split('\n')).toEqual([
      'A `dropship` order; a `combined` order.',
      '',
      '- one more',
      '- two',
      '# Heading',
      'Setext',
      '---',
      '```ts',
      'const a = 1;',
      'const b = 2;',
      '```',
      '',
      '    indented',
      '    code',
      '',
      'hard  ',
      'break',
    ]);
  });

  it('left no wrapped paragraph in the built copy of the create-order description', () => {
    const spec = readBuiltSpec();
    expect(JSON.stringify(spec)).toContain('otherwise); a `combined` order ships');
  });
});

describe('composed schemas shown as objects', () => {
  it('types a oneOf of objects (by type, by properties or through allOf), not one with a string', () => {
    const doc: JsonObject = {
      components: {
        schemas: {
          A: { type: 'object', properties: {} },
          B: { allOf: [{ $ref: '#/components/schemas/A' }, { properties: { x: { type: 'string' } } }] },
          Both: { oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] },
          Text: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/A' }] },
        },
      },
    };
    expect(typeComposedObjects(doc)).toEqual(['Both']);
    expect(JSON.stringify(doc)).not.toContain(
      '"Text":{"oneOf":[{"type":"string"},{"$ref":"#/components/schemas/A"}],"type"',
    );
  });
});

describe('the loader recognises runnable code', () => {
  it('by its text, whatever the trailing whitespace', () => {
    expect(codeHash(normalizeCode('a  \r\nb\n\n'))).toBe(codeHash(normalizeCode('a\nb')));
    expect(codeHash(normalizeCode('a\nb'))).not.toBe(codeHash(normalizeCode('a\nc')));
  });
});
