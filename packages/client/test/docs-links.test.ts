// Every docUrl points at a `##` section that exists in docs/guides (as the docs site routes it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_URL } from '../src/docs.ts';
import * as errors from '../src/errors.ts';

const slug = (heading: string) =>
  heading
    .replace(/`[^`]*`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s'-]/gu, '')
    .replace(/\s+/g, '-');

const sections = (guide: string) =>
  readFileSync(new URL(`../../../docs/guides/${guide}.md`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => slug(line.slice(3)));

const CODES = [
  'missing_address',
  'missing_image_reference',
  'evidence_required',
  'unsupported_image_format',
  'cursor_repeated',
  'unknown_code',
];

describe('docUrl', () => {
  const classes = Object.values(errors).filter(
    (value): value is typeof errors.PartnerPrintError =>
      typeof value === 'function' && value.prototype instanceof Error,
  );
  it.each(classes.map((Class) => [Class.name, Class] as const))(
    'of %s and its codes leads to a guide section',
    (_, Class) => {
      for (const code of [undefined, ...CODES]) {
        const url = new Class('x', code ? { code } : {}).docUrl;
        const match = url.match(/^(.*)#\/guide-([a-z0-9-]+)\/([a-z0-9'-]+)$/);
        expect(match?.[1]).toBe(DOCS_URL);
        expect(sections(match![2]!)).toContain(match![3]);
      }
    },
  );
});
