// Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a weekday; Date.parse alone accepts far
// too much (a bare "1.5" would become a date in 2001).
const HTTP_DATE = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i;
// RFC 9110 delay-seconds is 1*DIGIT; a decimal is accepted too (a server that sends "1.5" means 1.5 s,
// and reading it as "malformed" would only make the client retry sooner than asked).
const DELAY_SECONDS = /^\d+(\.\d+)?$/;

/**
 * The shortest wait after a 202 for a file (a render's media or thumbnail, a product's media): a `Retry-After`
 * of 0, a past date or a fraction would otherwise make a loop of requests, each spending the default and
 * downloads buckets. The client's `download` and the render package's own wait for a file both keep it.
 */
export const MIN_FILE_WAIT_MS = 1_000;

/**
 * `Retry-After` as a delay in milliseconds (≥ 0): delay-seconds, or an HTTP-date relative to `date` (the
 * answer's `Date` header, RFC 9110: a host whose clock is off still waits what the server asked) or, without
 * a usable one, to `nowMs`. Undefined when the value is missing or malformed; the caller then backs off on
 * its own.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
  date?: string | null,
): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (DELAY_SECONDS.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = HTTP_DATE.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  // A Date that is not an HTTP-date (or not a date at all) is no reference: the host's clock is used.
  const sent = (date && HTTP_DATE.test(date) && Date.parse(date)) || nowMs;
  return Number.isNaN(at) ? undefined : Math.max(0, at - sent);
}
