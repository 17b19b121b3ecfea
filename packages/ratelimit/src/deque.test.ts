import { describe, expect, it } from 'vitest';
import { Deque } from './deque.ts';

describe('Deque', () => {
  it('keeps FIFO order across wrap-around and growth, with unshift at the front', () => {
    const d = new Deque<number>();
    const model: number[] = [];
    let next = 0;
    for (let round = 0; round < 2000; round++) {
      const op = (round * 7919) % 5;
      if (op < 2) {
        d.push(next);
        model.push(next++);
      } else if (op === 2) {
        d.unshift(next);
        model.unshift(next++);
      } else {
        expect(d.shift()).toBe(model.shift());
      }
      expect(d.length).toBe(model.length);
      expect(d.peek()).toBe(model[0]);
    }
    expect([...d]).toEqual(model);
  });

  it('returns undefined when empty', () => {
    const d = new Deque<string>();
    expect(d.shift()).toBeUndefined();
    expect(d.peek()).toBeUndefined();
  });
});
