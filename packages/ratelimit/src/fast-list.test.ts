import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { parseList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { scanSimpleList } from './fast-list.ts';

describe('scanSimpleList (the fast path of the parser)', () => {
  it('reads the usual rate-limit fields', () => {
    const value = '"default";r=2999;t=0, "uploads";q=5000;w=86400;t=1.5, tok;pk=abc';
    expect(scanSimpleList(value)).toEqual(parseList(value));
  });

  it('reads numbers at the edges of what it handles as the general parser does', () => {
    for (const value of [
      '"a";r=-0',
      '"a";r=007;t=0.000',
      '"a";r=123456789012345;t=-123456789012.125',
      'tok;r=1.5, tok2;r=-1;x="y z"',
    ]) {
      expect(scanSimpleList(value), value).toBeDefined();
      expect(scanSimpleList(value), value).toEqual(parseList(value));
    }
  });

  it('gives up on what it does not handle, so the general parser decides', () => {
    for (const value of [
      '("a" "b")',
      '"a\\"b";r=1',
      '"a";x',
      '"a";r=?1',
      '"a";r=1.2345',
      '"a";r=1;r=2',
      '"a" ;r=1',
      '"a",',
      '',
      '"a";r=:AQ==:',
      '"a";r=1234567890123456',
      '"a";r=1234567890123.5',
      '"a";r=1.5.',
      '"a";r=1.',
      '"a";r=-',
      '"a;r=1',
    ])
      expect(scanSimpleList(value), value).toBeUndefined();
  });

  /** Values that end inside each of the scanner's loops and checks, and whether it reads them. */
  const ENDINGS: [value: string, reads: boolean][] = [
    ['tok', true], // a Token
    ['"a"', true], // a String, then the look for a parameter
    ['12', true], // an Integer
    ['-1', true],
    ['1.5', true], // a Decimal's fraction
    ['"a";r=1', true], // a parameter's Integer
    ['"a";t=1.25', true],
    ['"a";k=tok', true],
    ['"a";k="v"', true],
    ['"a" ', true], // spaces after the last member
    ['"a", b', true],
    ['   ', false], // spaces alone
    ['"a', false], // a String without its closing quote
    ['-', false], // a sign without digits
    ['1.', false], // a point without digits
    ['"a";', false], // a parameter without a key
    ['"a"; ', false],
    ['"a";r', false], // a key without a value
    ['"a";r=', false], // a value that is not there
    ['"a",', false], // a comma without a member after it
    ['"a", ', false],
  ];

  it('reads a value ending inside each of its loops as the general parser does, and gives up on the rest', () => {
    for (const [value, reads] of ENDINGS)
      expect(scanSimpleList(value), value).toEqual(reads ? parseList(value) : undefined);
  });

  it('does not read past the end of a value (an out-of-bounds read deoptimized it, at every end)', () => {
    setFlagsFromString('--allow-natives-syntax');
    // Natives syntax is read when a function is compiled: after the flag, in functions made from text.
    const prepare = new Function('f', '%PrepareFunctionForOptimization(f)');
    const optimize = new Function('f', '%OptimizeFunctionOnNextCall(f)');
    const status = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number;
    const TURBOFANNED = 1 << 4; // V8's OptimizationStatus::kOptimized
    // A scanner of its own, fresh (no feedback from the tests before), warmed on values that never end
    // inside a loop: each ends at a closing quote of a String with a parameter after it, never at the end.
    const scan = new Function('f', 'return (v) => f(v)')(scanSimpleList) as typeof scanSimpleList;
    prepare(scan);
    for (let i = 0; i < 3; i++) scan('"default";r=2999;t=0, "uploads";r=4999;t=0');
    optimize(scan);
    scan('"default";r=2999;t=0, "uploads";r=4999;t=0');
    expect(status(scan) & TURBOFANNED).toBe(TURBOFANNED);
    for (const [value] of ENDINGS) {
      scan(value);
      expect(status(scan) & TURBOFANNED, value).toBe(TURBOFANNED);
    }
  });

  it('reads every value it accepts exactly as the general parser does (fast-check)', () => {
    const name = fc.oneof(
      fc.stringMatching(/^[A-Za-z*][A-Za-z0-9:/!#$%&'*+.^_`|~-]{0,8}$/),
      fc.stringMatching(/^"[ -~]{0,8}"$/),
    );
    const param = fc.tuple(
      fc.stringMatching(/^[a-z*][a-z0-9_.*-]{0,4}$/),
      fc.oneof(
        fc.integer({ min: -1e6, max: 1e15 }).map(String),
        fc.double({ min: 0, max: 1e6, noNaN: true }).map((n) => n.toFixed(3)),
        fc.stringMatching(/^[ -~]{0,6}$/),
        name,
      ),
    );
    const member = fc
      .tuple(name, fc.array(param, { maxLength: 3 }))
      .map(([n, ps]) => `${n}${ps.map(([k, v]) => `;${k}=${v}`).join('')}`);
    const list = fc.tuple(
      fc.array(member, { minLength: 1, maxLength: 3 }),
      fc.constantFrom(',', ', ', ' ,  ', ',\t'),
    );
    fc.assert(
      fc.property(list, ([members, sep]) => {
        const value = members.join(sep);
        const fast = scanSimpleList(value);
        if (fast === undefined) return;
        expect(fast).toEqual(parseList(value));
      }),
      { numRuns: 2000 },
    );
  });
});
