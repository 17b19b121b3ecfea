import { type BareItem, type Item, Token } from 'structured-headers';

/**
 * A scanner for the shape rate-limit fields nearly always have — a List of Strings or Tokens, each with
 * Integer, Decimal, String or Token parameters, e.g. `"default";r=2999;t=0, "uploads";r=4999;t=0` — about
 * ten times faster than the general parser. It accepts a strict subset of RFC 9651 (no Inner Lists, no
 * escapes, no Booleans, no Byte Sequences, no Dates) and gives up (undefined) on anything else, which the
 * general parser (`structured-headers`' `parseList`) then reads; so every value it accepts reads the same.
 */
export function scanSimpleList(value: string): Item[] | undefined {
  const out: Item[] = [];
  let i = 0;
  while (at(value, i) === 32) i++;
  if (i === value.length) return undefined;
  for (;;) {
    const item = scanBare(value, i);
    if (item === undefined) return undefined;
    i = scanned;
    const params = new Map<string, BareItem>();
    while (at(value, i) === 59 /* ; */) {
      i++;
      while (at(value, i) === 32) i++;
      const keyEnd = scanKey(value, i);
      if (keyEnd === i || at(value, keyEnd) !== 61 /* = */) return undefined;
      const key = value.slice(i, keyEnd);
      const param = scanBare(value, keyEnd + 1);
      if (param === undefined || params.has(key)) return undefined;
      params.set(key, param);
      i = scanned;
    }
    out.push([item, params]);
    i = skipSpaces(value, i);
    if (i === value.length) return out;
    if (at(value, i) !== 44 /* , */) return undefined;
    i = skipSpaces(value, i + 1);
    if (i === value.length) return undefined;
  }
}

/**
 * The character code at `i`, or -1 past the end, which no check takes for a character (as NaN, which
 * `charCodeAt` gives there). Never read past the end: an out-of-bounds `charCodeAt` deoptimizes the code
 * that makes it, and every value ends in one of these loops.
 */
const at = (s: string, i: number): number => (i < s.length ? s.charCodeAt(i) : -1);

const skipSpaces = (s: string, i: number): number => {
  let j = i;
  while (at(s, j) === 32 || at(s, j) === 9) j++;
  return j;
};

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isAlpha = (c: number): boolean => isLower(c) || (c >= 65 && c <= 90);

/** Where a parameter key starting at `i` ends (`i` when there is none): `[a-z*][a-z0-9_\-.*]*`, ≤ 64. */
function scanKey(s: string, i: number): number {
  const first = at(s, i);
  if (!isLower(first) && first !== 42 /* * */) return i;
  let j = i + 1;
  for (let c = at(s, j); isLower(c) || isDigit(c) || c === 95 || c === 45 || c === 46 || c === 42; )
    c = at(s, ++j);
  return j - i > 64 ? i : j;
}

// tchar of RFC 9110, and `:` and `/` (RFC 9651 §3.3.4), after the first character.
const TOKEN_CHARS = new Set(Array.from(":/!#$%&'*+-.^_`|~", (c) => c.charCodeAt(0)));
const isTokenChar = (c: number): boolean => isAlpha(c) || isDigit(c) || TOKEN_CHARS.has(c);
/** Printable ASCII but `"` and `\\`: a String the fast path reads (no escapes). */
const isPlainStringChar = (c: number): boolean => c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c;

/** Where the item {@link scanBare} read last ends (no object per item: this runs per answer). */
let scanned = 0;

/** A String (no escapes), a Token, an Integer or a Decimal starting at `i`; its end goes to `scanned`. */
function scanBare(s: string, i: number): BareItem | undefined {
  const c = at(s, i);
  if (c === 34 /* " */) {
    let j = i + 1;
    while (isPlainStringChar(at(s, j))) j++;
    // Escapes, characters outside printable ASCII, or no closing quote: the general parser decides.
    if (at(s, j) !== 34) return undefined;
    scanned = j + 1;
    return s.slice(i + 1, j);
  }
  if (c === 45 || isDigit(c)) return scanNumber(s, i);
  if (!isAlpha(c) && c !== 42 /* * */) return undefined;
  let j = i + 1;
  while (isTokenChar(at(s, j))) j++;
  if (j - i >= 256) return undefined;
  scanned = j;
  return new Token(s.slice(i, j));
}

/** An Integer (≤ 15 digits) or a Decimal (≤ 12 digits, `.`, 1–3 digits), not followed by a digit or `.`. */
function scanNumber(s: string, i: number): number | undefined {
  const negative = at(s, i) === 45; /* - */
  let j = negative ? i + 1 : i;
  const start = j;
  // At most 15 digits: exact in a double, so no text to convert.
  let n = 0;
  for (let c = at(s, j); isDigit(c); c = at(s, ++j)) n = n * 10 + (c - 48);
  const whole = j - start;
  if (whole === 0) return undefined;
  if (at(s, j) === 46 /* . */) {
    if (whole > 12) return undefined;
    const point = j;
    j++;
    while (isDigit(at(s, j))) j++;
    const fraction = j - point - 1;
    if (fraction < 1 || fraction > 3 || at(s, j) === 46) return undefined;
    scanned = j;
    return Number(s.slice(i, j));
  }
  if (whole > 15) return undefined;
  scanned = j;
  return negative ? -n : n;
}
