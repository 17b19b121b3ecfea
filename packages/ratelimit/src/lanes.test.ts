import { describe, expect, it } from 'vitest';
import { type Entry, type Lane, Lanes } from './lanes.ts';

let seq = 0;
function entry(lane: Lane): Entry {
  return {
    seq: ++seq,
    input: undefined,
    init: undefined,
    request: undefined,
    body: undefined,
    lane,
    signal: undefined,
    onAbort: undefined,
    resolve: () => {},
    attempts: 0,
    enqueuedAt: 0,
    state: 'queued',
    attempt: undefined,
    maxRetries: 0,
    pauseLimit: Infinity,
    scope: { run: (fn) => fn() },
  };
}

describe('Lanes', () => {
  it('offers the lanes with entries by priority, then arrival, as lanes join and leave in any order', () => {
    const lanes = new Lanes();
    const a = lanes.laneFor('org', 'GET /a', 0, undefined);
    const b = lanes.laneFor('org', 'GET /b', 0, undefined);
    const c = lanes.laneFor('org', 'GET /c', 5, undefined);
    const d = lanes.laneFor('org', 'GET /d', 0, undefined);
    expect(lanes.laneFor('org', 'GET /a', 0, undefined)).toBe(a);
    const ea = entry(a);
    const eb = entry(b);
    const ec = entry(c);
    const ed = entry(d);
    for (const e of [ea, eb, ec, ed]) lanes.enqueue(e, false);
    expect(lanes.candidates(0)).toEqual([c, a, b, d]);
    // The first of a level leaves: the others keep their order by arrival.
    lanes.take(a, ea);
    expect(lanes.candidates(0)).toEqual([c, b, d]);
    lanes.remove(ed);
    expect(lanes.candidates(0)).toEqual([c, b]);
    lanes.take(c, ec);
    // One lane left: the single-lane path.
    expect(lanes.candidates(0)).toEqual([b]);
    b.blockedUntil = 100;
    expect(lanes.candidates(50)).toEqual([]);
    expect(lanes.wakeAt()).toBe(100);
    lanes.unblock();
    expect(lanes.candidates(50)).toEqual([b]);
    // Lanes come back, a retry at the front of its lane.
    const ea2 = entry(a);
    lanes.enqueue(ea2, false);
    lanes.enqueue(ea, true);
    expect(lanes.candidates(0)).toEqual([a, b]);
    expect(lanes.head(a)).toBe(ea);
    expect(lanes.queued).toBe(3);
    lanes.take(b, eb);
    expect(lanes.candidates(0)).toEqual([a]);
    lanes.take(a, ea);
    lanes.take(a, ea2);
    expect(lanes.candidates(0)).toEqual([]);
    expect(lanes.wakeAt()).toBe(Number.POSITIVE_INFINITY);
    expect(lanes.queued).toBe(0);
  });

  it('drains every queued entry once', () => {
    const lanes = new Lanes();
    const a = lanes.laneFor('org', 'GET /a', 0, undefined);
    const b = lanes.laneFor('org', 'GET /b', -1, ['default']);
    const entries = [entry(a), entry(b), entry(a)];
    for (const e of entries) lanes.enqueue(e, false);
    lanes.remove(entries[2] as Entry);
    expect(lanes.drain()).toEqual(entries.slice(0, 2));
    expect(lanes.candidates(0)).toEqual([]);
    expect(lanes.queued).toBe(0);
  });
});

describe('Lanes.take', () => {
  it('takes the entry it admitted even when a retry came in at the front meanwhile', () => {
    const lanes = new Lanes();
    const lane = lanes.laneFor('k', 'GET /orders', 0, undefined);
    const first = entry(lane);
    const retry = entry(lane);
    lanes.enqueue(first, false);
    expect(lanes.head(lane)).toBe(first);
    // The store answers asynchronously: a 429'd request is queued again at the front before it does.
    lanes.enqueue(retry, true);
    lanes.take(lane, first);
    expect(lanes.head(lane)).toBe(retry);
    expect(lanes.queued).toBe(1);
    lanes.take(lane, retry);
    expect(lanes.head(lane)).toBeUndefined();
    expect(lanes.queued).toBe(0);
  });
});
