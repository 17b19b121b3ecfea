/**
 * RFC 3339 `full-date` and `date-time` (JSON Schema's `date` and `date-time` formats, as the spec declares
 * `closedAfter`): the instant they name in ms, or NaN when the value is neither (a day the calendar does not
 * have included).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// The separator: T, or whitespace as RFC 3339 allows "for readability" (and JSON Schema validators accept).
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

function day(y: string, m: string, d: string): number {
  const [year, month, date] = [Number(y), Number(m), Number(d)];
  if (month < 1 || month > 12 || date < 1 || date > daysIn(year, month)) return Number.NaN;
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, date);
  return at.getTime();
}

export function parseDateOrDateTime(value: string): number {
  const d = DATE.exec(value);
  if (d) return day(d[1] as string, d[2] as string, d[3] as string);
  const t = DATE_TIME.exec(value);
  if (!t) return Number.NaN;
  const [, y, mo, da, h, mi, s, fraction, zulu, sign, oh, om] = t;
  const [hour, minute, second] = [Number(h), Number(mi), Number(s)];
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om ?? 0));
  if (!zulu && (Number(oh) > 23 || Number(om ?? 0) > 59)) return Number.NaN;
  if (hour > 23 || minute > 59 || second > 60) return Number.NaN;
  // A leap second (:60) exists only as the last second of a UTC day (23:59:60Z); the sandbox's clock has
  // none, so it names the midnight that ends it.
  const leap = second === 60;
  if (leap && (((hour * 60 + minute - offset) % 1440) + 1440) % 1440 !== 1439) return Number.NaN;
  const ms = fraction && !leap ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  return (
    day(y as string, mo as string, da as string) + ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms
  );
}
