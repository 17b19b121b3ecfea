// Every docUrl points at the section of the errors page (docs/guides/errors.md) for the error's class, as the
// docs site routes it (`#/guide-errors/<heading slug>`): a `## <ClassName>` heading, whose slug is the name in
// lower case. The code does not change the link: the class's section lists its codes and links on.
// docs/test/error-contract.test.ts checks the same against the built site for every package's classes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_URL } from '../src/docs.ts';
import * as main from '../src/index.ts';
import * as lite from '../src/lite.ts';
import * as redis from '../src/redis.ts';

const page = readFileSync(new URL('../../../docs/guides/errors.md', import.meta.url), 'utf8');
const headings = page
  .split('\n')
  .filter((line) => line.startsWith('## '))
  .map((line) => line.slice(3).trim());

const CODES = [
  'missing_address',
  'missing_image_reference',
  'evidence_required',
  'unsupported_image_format',
  'cursor_repeated',
  'unknown_code',
];

type ErrorClass = new (...args: never[]) => main.PartnerPrintError;

const classes = [
  ...new Map(
    [main, lite, redis]
      .flatMap((entry) => Object.entries(entry))
      .filter((entry): entry is [string, ErrorClass] => {
        const value = entry[1];
        return typeof value === 'function' && value.prototype instanceof main.PartnerPrintError;
      }),
  ),
  ['PartnerPrintError', main.PartnerPrintError] as const,
];

/** `new Class('x', { code })`; AmbiguousOrderError takes the order's history, and its cause gives the code. */
const make = (Class: ErrorClass, code: string | undefined): main.PartnerPrintError => {
  const init = code ? { code } : {};
  const args =
    Class === main.AmbiguousOrderError
      ? [{ steps: [], describe: () => 'nothing' }, 'no answer', new main.NetworkError('x', init)]
      : ['x', init];
  return Reflect.construct(Class, args) as main.PartnerPrintError;
};

describe('docUrl', () => {
  it('covers every error class of the client', () => {
    expect(classes.map(([name]) => name)).toEqual(
      expect.arrayContaining(['PartnerPrintError', 'ValidationError', 'OrderClaimUnavailableError']),
    );
  });

  it.each(classes.map(([name, Class]) => [name, Class] as const))(
    'of %s, whatever its code, is its section of the errors page',
    (exported, Class) => {
      expect(headings, `docs/guides/errors.md has a "## ${exported}" section`).toContain(exported);
      for (const code of [undefined, ...CODES]) {
        // A subclass may keep its parent's name (AmbiguousOrderError): its link is then the parent's section.
        const error = make(Class, code);
        expect(headings).toContain(error.name);
        expect(error.docUrl).toBe(`${DOCS_URL}#/guide-errors/${error.name.toLowerCase()}`);
      }
    },
  );
});
