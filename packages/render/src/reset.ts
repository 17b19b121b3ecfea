/**
 * Rendertokens reset every Monday 00:00 in Europe/Amsterdam. The instant of that wall-clock time moves with
 * daylight saving (23:00 UTC in winter, 22:00 UTC in summer), so it is derived from the IANA zone data that
 * `Intl` carries rather than from a table of offsets.
 */
export const RENDERTOKEN_TIME_ZONE = 'Europe/Amsterdam';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading in `timeZone` at `instant` (whole seconds). */
export function wallTime(instant: number, timeZone: string = RENDERTOKEN_TIME_ZONE): WallTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  const weekday = WEEKDAYS.indexOf(parts.weekday!);
  if (weekday < 0) throw new RangeError(`Cannot read the weekday of ${new Date(instant).toISOString()}`);
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    // Some engines print midnight as 24 even with h23.
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday,
  };
}

/** Offset of `timeZone` from UTC at `instant`, in milliseconds (e.g. +3 600 000 for CET). */
export function zoneOffsetMs(instant: number, timeZone: string = RENDERTOKEN_TIME_ZONE): number {
  const w = wallTime(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which the wall clock in `timeZone` reads `wallUtc` (a wall time encoded as if it were UTC). */
function instantOfWall(wallUtc: number, timeZone: string): number {
  // Two rounds settle on the right offset when it differs between the guess and the answer.
  let instant = wallUtc - zoneOffsetMs(wallUtc, timeZone);
  instant = wallUtc - zoneOffsetMs(instant, timeZone);
  return instant;
}

/**
 * The next rendertoken reset after `date`: the next Monday 00:00 Europe/Amsterdam, as an instant.
 *
 * "Next" is strict: exactly at Monday 00:00 the budget has just been reset, so the answer is the
 * following Monday (seven calendar days later). The result is therefore always later than `date` and at
 * most seven Amsterdam calendar days ahead — which is 7 × 24 h, or one hour less or more across the spring
 * and autumn daylight-saving switches.
 */
export function nextRendertokenReset(
  date: Date | number = Date.now(),
  timeZone: string = RENDERTOKEN_TIME_ZONE,
): Date {
  const instant = typeof date === 'number' ? date : date.getTime();
  if (!Number.isFinite(instant)) throw new RangeError('nextRendertokenReset needs a valid date');
  const w = wallTime(instant, timeZone);
  const daysAhead = 7 - w.weekday; // Monday → 7, Tuesday → 6, … Sunday → 1
  return new Date(instantOfWall(Date.UTC(w.year, w.month - 1, w.day + daysAhead), timeZone));
}

/** When the rendertokens read at `now` reset: their `resets`, else (unreadable) the next Monday computed. */
export function resetsAtOf(rendertokens: { resets: string }, now: number): Date {
  const parsed = Date.parse(rendertokens.resets);
  return Number.isNaN(parsed) ? nextRendertokenReset(now) : new Date(parsed);
}
