import { refuseUnknownOptions } from '@partner-print/openapi/wire';

/**
 * Checks a constructor's options once, when it is made: each number option (`numbers`: its least value) must be
 * a number at least that, a finite one when its name ends in `Ms` (a timer or Redis's `PX` takes it), a whole
 * one when `whole`; any other name must be one of `others`, or it is a typo (wire's `refuseUnknownOptions`). A setting read
 * with `Number()` from an unset variable is NaN: a NaN concurrency admitted one request and left the rest
 * pending for ever, a NaN `maxRetries` retried a 429 without end, a NaN store deadline or Redis `ttlMs` made
 * the shared store look down (each process then spent the quota alone). `undefined` is the default. Types of
 * functions and objects are not checked: a wrong one fails loudly at its first use. Only a number is shown: a
 * string may be a secret put in the wrong place.
 */
export function checkOptions(
  what: string,
  numbers: Readonly<Record<string, number>>,
  others: readonly string[],
  options: object,
  whole?: boolean,
): void {
  refuseUnknownOptions(options, [...Object.keys(numbers), ...others], TypeError, `${what}: `);
  for (const [name, least] of Object.entries(numbers)) {
    const value: unknown = (options as Record<string, unknown>)[name];
    if (
      value === undefined ||
      (typeof value === 'number' &&
        value >= least &&
        (!name.endsWith('Ms') || (whole ? Number.isSafeInteger : Number.isFinite)(value)))
    )
      continue;
    throw new TypeError(
      `${what}: ${name} must be a ${whole ? 'whole ' : ''}number ≥ ${least}, got ${typeof value === 'number' ? value : typeof value}`,
    );
  }
}
