const ZONE = 'Europe/Amsterdam';
const DAY = 86_400_000;

const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
});

interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number; // 0 = Monday
}

const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

function local(instant: number): Local {
  const p: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(instant)) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
    weekday: WEEKDAYS[p.weekday!]!,
  };
}

/** Offset of Europe/Amsterdam from UTC at an instant, in minutes (60 or 120), read from Intl. */
export function amsterdamOffsetMinutes(instant: number): number {
  const l = local(instant);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock midnight in Amsterdam. */
function midnight(year: number, month: number, day: number): number {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall - amsterdamOffsetMinutes(wall) * 60_000;
  guess = wall - amsterdamOffsetMinutes(guess) * 60_000;
  return guess;
}

export interface Week {
  start: number;
  reset: number;
  /** `reset` as ISO 8601 with Amsterdam's offset at that instant, e.g. 2026-11-23T00:00:00+01:00. */
  resets: string;
}

/** The rendertoken week holding `instant`: Monday 00:00 Europe/Amsterdam to the next Monday 00:00. */
export function renderWeek(instant: number): Week {
  const l = local(instant);
  const mondayWall = Date.UTC(l.year, l.month - 1, l.day) - l.weekday * DAY;
  const m = new Date(mondayWall);
  const start = midnight(m.getUTCFullYear(), m.getUTCMonth() + 1, m.getUTCDate());
  const n = new Date(mondayWall + 7 * DAY);
  const reset = midnight(n.getUTCFullYear(), n.getUTCMonth() + 1, n.getUTCDate());
  const offset = amsterdamOffsetMinutes(reset);
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  const date = n.toISOString().slice(0, 10);
  return { start, reset, resets: `${date}T00:00:00${sign}${hh}:${mm}` };
}
