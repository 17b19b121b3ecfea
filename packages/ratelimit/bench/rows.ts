/**
 * The scenarios of the multi-process bench (issue 21's table) and how each row is judged. A row runs
 * `processes` worker processes of one organization against a fresh token-bucket server; `events` change
 * the server mid-run (policy, faults) at seconds after the start.
 */
import type { TokenBucketApi } from './token-bucket-api.ts';
import type { Strategy, WorkerResult } from './worker.ts';

export const QUOTA = 120;
export const WINDOW = 6;
export const RATE = QUOTA / WINDOW;
export const CALLERS = 8;

export interface Row {
  name: string;
  strategy: Strategy;
  processes: number;
  seconds: number;
  redis?: boolean;
  /** Process index → second at which it stops. */
  stops?: Record<number, number>;
  paths?: string[];
  /** The workers start cold: no connection opened before the shared start (bench/worker.ts). */
  cold?: boolean;
  events?: { at: number; apply(api: TokenBucketApi): void }[];
  /** Judges the row: a figure to print and whether the target is met (undefined: no target). */
  judge?(run: RowRun): { figures: Record<string, string>; target: string; pass: boolean };
}

export interface RowRun {
  row: Row;
  results: WorkerResult[];
  /** 429s the server sent. */
  serverLimited: number;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const between = (xs: readonly number[], from: number, to: number): number => {
  let n = 0;
  for (let s = from; s < to; s++) n += xs[s] ?? 0;
  return n;
};

export const jain = (xs: readonly number[]): number => {
  const squares = sum(xs.map((x) => x * x));
  return squares === 0 ? 1 : sum(xs) ** 2 / (xs.length * squares);
};

/** Utilization, 429 share and Jain's index of a whole row. */
export function totals(run: RowRun): { utilization: number; limitedShare: number; j: number; ok: number } {
  const ok = sum(run.results.map((r) => r.ok));
  const seen = sum(run.results.map((r) => r.ok + r.limited + r.other));
  return {
    ok,
    utilization: ok / (QUOTA + run.row.seconds * RATE),
    limitedShare: run.serverLimited / Math.max(1, seen),
    j: jain(run.results.map((r) => r.ok)),
  };
}

function steady(utilization: number, limited: number, j?: number): Row['judge'] {
  return (run) => {
    const t = totals(run);
    const pass = t.utilization >= utilization && t.limitedShare <= limited && (j === undefined || t.j >= j);
    return {
      figures: { utilization: pct(t.utilization), '429 share': pct(t.limitedShare), J: t.j.toFixed(3) },
      target: `≥${pct(utilization)}, ≤${pct(limited)} 429${j === undefined ? '' : `, J≥${j}`}`,
      pass,
    };
  };
}

function policyChange(q: number, at: number, seconds: number): Row {
  return {
    name: `policy ${q < QUOTA ? 'halved' : 'doubled'} at ${at}s, 3 processes`,
    strategy: 'scheduler',
    processes: 3,
    seconds,
    events: [{ at, apply: (api) => api.setPolicy('default', { q, w: WINDOW }) }],
    judge: (run) => {
      const after = sum(run.results.map((r) => between(r.okPerSecond, at, seconds)));
      const max = ((seconds - at) * q) / WINDOW;
      const t = totals(run);
      return {
        figures: { 'of new max': pct(after / max), '429 share': pct(t.limitedShare), J: t.j.toFixed(3) },
        target: '≥97.0% of the new max, ≤1.0% 429',
        pass: after / max >= 0.97 && t.limitedShare <= 0.01,
      };
    },
  };
}

/** The rows, scaled to `seconds` per steady row (default 18). */
export function rows(seconds: number): Row[] {
  const s = seconds;
  const steadyRow = (processes: number, redis: boolean, judge: Row['judge']): Row => ({
    name: `scheduler, ${processes} process${processes > 1 ? 'es' : ''}${processes > 1 ? (redis ? ', Redis store' : ', no store') : ''}`,
    strategy: 'scheduler',
    processes,
    seconds: s,
    redis,
    judge,
  });
  return [
    steadyRow(1, false, steady(0.99, 0)),
    steadyRow(2, false, steady(0.97, 0.01, 0.9)),
    steadyRow(3, false, steady(0.97, 0.01, 0.9)),
    steadyRow(6, false, steady(0.97, 0.01, 0.9)),
    steadyRow(3, true, steady(0.98, 0, 0.95)),
    steadyRow(6, true, steady(0.98, 0, 0.95)),
    stopRow(),
    policyChange(QUOTA / 2, Math.round(s / 3), s),
    policyChange(QUOTA * 2, Math.round(s / 3), s),
    headerlessRow(),
    stormRow(),
    {
      name: 'naive (sleep Retry-After), 3 processes',
      strategy: 'naive',
      processes: 3,
      seconds: s,
      judge: info,
    },
    { name: 'Bottleneck static, 3 processes', strategy: 'bottleneck', processes: 3, seconds: s, judge: info },
    // A fleet deployed at once: no warm-up, so on 2 cores some processes' first requests reach the server
    // hundreds of ms after the others'. The scheduler's start pace gives them their part of the full bucket.
    {
      name: 'scheduler, 6 processes, no store, cold start',
      strategy: 'scheduler',
      processes: 6,
      seconds: s,
      cold: true,
      judge: steady(0.97, 0.01, 0.95),
    },
  ];
}

function info(run: RowRun): ReturnType<NonNullable<Row['judge']>> {
  const t = totals(run);
  return {
    figures: { utilization: pct(t.utilization), '429 share': pct(t.limitedShare), J: t.j.toFixed(3) },
    target: '(comparison)',
    pass: true,
  };
}

/** One of 3 processes stops at 6 s: the other two, from 2 windows later, reach ≥ 95% of the rate. */
function stopRow(): Row {
  const stopAt = 6;
  const from = stopAt + 2 * WINDOW;
  const seconds = from + 6;
  return {
    name: `one of 3 stops at ${stopAt}s`,
    strategy: 'scheduler',
    processes: 3,
    seconds,
    stops: { 0: stopAt },
    judge: (run) => {
      const rate =
        sum(run.results.slice(1).map((r) => between(r.okPerSecond, from, seconds))) / (seconds - from);
      return {
        figures: {
          'rate after 2 windows': pct(rate / RATE),
          J: jain(run.results.slice(1).map((r) => r.ok)).toFixed(3),
        },
        target: '≥95.0% of the rate',
        pass: rate / RATE >= 0.95,
      };
    },
  };
}

/** From 4 s on, one route answers 429 without rate-limit fields and a week of Retry-After. */
function headerlessRow(): Row {
  const at = 4;
  const seconds = 14;
  return {
    name: "a header-less 429 with a week's Retry-After on one route, 1 process",
    strategy: 'scheduler',
    processes: 1,
    seconds,
    paths: ['/claims', '/orders/Order_00000000000000000000000000'],
    events: [
      {
        at,
        apply: (api) =>
          api.setFault((request) =>
            request.url.includes('/orders/')
              ? new Response('busy', { status: 429, headers: { 'retry-after': '604800' } })
              : undefined,
          ),
      },
    ],
    judge: (run) => {
      const claims = run.results[0]?.paths['/claims'];
      const rate = claims ? between(claims.okPerSecond, at + 1, seconds) / (seconds - at - 1) : 0;
      const maxMs = claims?.maxMs ?? Number.POSITIVE_INFINITY;
      return {
        figures: { 'other route': `${pct(rate / RATE)} of the rate`, 'longest call': `${maxMs} ms` },
        target: 'other routes ≥95% of the rate, no call > 2 s',
        pass: rate / RATE >= 0.95 && maxMs <= 2000,
      };
    },
  };
}

/** From 5 s to 8 s every answer is a 429 with `Retry-After: 0`. */
function stormRow(): Row {
  const from = 5;
  const to = 8;
  return {
    name: 'a Retry-After: 0 storm of 3 s, 3 processes',
    strategy: 'scheduler',
    processes: 3,
    seconds: 14,
    events: [
      {
        at: from,
        apply: (api) =>
          api.setFault(
            () =>
              new Response('{"code":"rate_limited"}', {
                status: 429,
                headers: {
                  'retry-after': '0',
                  'x-ratelimit-policy': `"default";q=${QUOTA};w=${WINDOW}`,
                  'x-ratelimit': '"default";r=0;t=0',
                },
              }),
          ),
      },
      { at: to, apply: (api) => api.setFault(undefined) },
    ],
    judge: (run) => {
      const lost = sum(run.results.map((r) => r.lost));
      const perSecond = Math.max(
        ...run.results.map((r) => between(r.limitedPerSecond, from, to + 1) / (to - from)),
      );
      return {
        figures: { lost: String(lost), '429/s per process (max)': perSecond.toFixed(2) },
        target: 'no request lost, ≤2 429s/s per process',
        pass: lost === 0 && perSecond <= 2,
      };
    },
  };
}
