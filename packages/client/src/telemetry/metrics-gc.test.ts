import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Meter, ObservableCallback } from '@opentelemetry/api';
import { expect, it } from 'vitest';
import { clientInstruments } from './metrics.ts';

// A meter lives as long as the program; the `remaining` gauge's callback of each client was registered on it and
// held that client's state for ever, so a program making a client per tenant or per request kept them all and
// reported a series for each (review). The callback of a client collected now removes itself.
it("a collected client's remaining-gauge callback removes itself from the meter at the next collection", async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const callbacks: ObservableCallback[] = [];
  const meter = {
    createObservableGauge: () => ({
      addCallback: (cb: ObservableCallback) => callbacks.push(cb),
      removeCallback: (cb: ObservableCallback) => callbacks.splice(callbacks.indexOf(cb), 1),
    }),
    createHistogram: () => ({}),
    createUpDownCounter: () => ({}),
    createCounter: () => ({}),
  } as unknown as Meter;
  const observed: number[] = [];
  const result = { observe: (value: number) => observed.push(value) } as never;
  const kept = clientInstruments(
    meter,
    undefined,
    (t) => t,
    () => 'budget-a',
  );
  const made = () => {
    // Each made and dropped at once, as a client made per request is.
    for (let i = 0; i < 20; i++)
      clientInstruments(
        meter,
        undefined,
        (t) => t,
        () => 'budget-b',
      ).observe(new Headers());
  };
  made();
  expect(callbacks).toHaveLength(21);
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  for (const cb of [...callbacks]) await cb(result);
  expect(callbacks).toHaveLength(1);
  expect(kept).toBeDefined();
});
