// Header collections of a partner's HTTP stack that are not the runtime's global Headers.

/**
 * Another implementation of the Fetch standard's Headers (as npm undici's own class is to Node's global one,
 * or node-fetch's): its state is private, so `Object.entries` of it is empty and `instanceof Headers` is false.
 */
export class ForeignHeaders {
  readonly #map = new Map<string, string>();
  constructor(init: Record<string, string> | Array<[string, string]> = {}) {
    for (const [k, v] of Array.isArray(init) ? init : Object.entries(init)) this.append(k, v);
  }
  append(name: string, value: string) {
    const key = name.toLowerCase();
    const had = this.#map.get(key);
    this.#map.set(key, had === undefined ? value : `${had}, ${value}`);
  }
  get(name: string) {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string) {
    return this.#map.has(name.toLowerCase());
  }
  forEach(f: (value: string, key: string) => void) {
    for (const [k, v] of this.#map) f(v, k);
  }
  entries() {
    return this.#map.entries();
  }
  keys() {
    return this.#map.keys();
  }
  values() {
    return this.#map.values();
  }
  [Symbol.iterator]() {
    return this.#map.entries();
  }
}

/** An older polyfill's Headers (node-fetch 1, early whatwg-fetch): read only through `forEach(value, name)`. */
export class ForEachHeaders {
  readonly #pairs: Array<[string, string]>;
  constructor(init: Record<string, string>) {
    this.#pairs = Object.entries(init);
  }
  forEach(f: (value: string, name: string) => void) {
    for (const [k, v] of this.#pairs) f(v, k);
  }
}
