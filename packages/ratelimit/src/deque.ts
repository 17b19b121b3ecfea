/**
 * A double-ended queue on a growable ring buffer: O(1) push, shift and unshift (amortized), unlike
 * Array#shift, which is O(n) on large arrays.
 */
export class Deque<T> {
  /** A power of two (the index wraps by a mask): 16 slots, doubled when full. */
  #buffer: (T | undefined)[] = new Array<T | undefined>(16);
  #head = 0;
  #count = 0;

  get length(): number {
    return this.#count;
  }

  push(value: T): void {
    if (this.#count === this.#buffer.length) this.#grow();
    this.#buffer[(this.#head + this.#count) & (this.#buffer.length - 1)] = value;
    this.#count++;
  }

  unshift(value: T): void {
    if (this.#count === this.#buffer.length) this.#grow();
    this.#head = (this.#head - 1) & (this.#buffer.length - 1);
    this.#buffer[this.#head] = value;
    this.#count++;
  }

  shift(): T | undefined {
    if (this.#count === 0) return undefined;
    const value = this.#buffer[this.#head];
    this.#buffer[this.#head] = undefined;
    this.#head = (this.#head + 1) & (this.#buffer.length - 1);
    this.#count--;
    if (this.#count === 0) this.#head = 0;
    return value;
  }

  /** Every slot not holding a value is undefined (`shift` clears its slot), so an empty deque's head is too. */
  peek(): T | undefined {
    return this.#buffer[this.#head];
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.#count; i++)
      yield this.#buffer[(this.#head + i) & (this.#buffer.length - 1)] as T;
  }

  #grow(): void {
    const old = this.#buffer;
    const next = new Array<T | undefined>(old.length * 2);
    for (let i = 0; i < this.#count; i++) next[i] = old[(this.#head + i) & (old.length - 1)];
    this.#buffer = next;
    this.#head = 0;
  }
}
