const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface Random {
  next(): number;
  chars(length: number): string;
  int(maxExclusive: number): number;
}

function hashSeed(seed: string): number {
  // FNV-1a: turns the seed text into a 32-bit state.
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and deterministic; good enough for opaque identifiers. */
export function createRandom(seed: string): Random {
  let state = hashSeed(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max) => Math.floor(next() * max),
    chars(length) {
      let out = '';
      for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(next() * 62)];
      return out;
    },
  };
}

export type Prefix =
  | 'Store'
  | 'Order'
  | 'Product'
  | 'Productgroup'
  | 'Image'
  | 'Evidence'
  | 'Claim'
  | 'Claimcategory'
  | 'Shipment'
  | 'Item'
  | 'Scene'
  | 'Perspective'
  | 'Composition'
  | 'Render';

/** A reference of one resource, typed as the SDK's generated types expect (`Order_…`). */
export type Ref<P extends Prefix> = `${P}_${string}`;

export const REFERENCE_PATTERN: RegExp = /^([A-Z][a-z]+)_[0-9A-Za-z]{26}$/;

/** Issues references that are unique within one sandbox. */
export class ReferenceFactory {
  private readonly issued = new Set<string>();
  constructor(private readonly random: Random) {}
  next<P extends Prefix>(prefix: P): Ref<P> {
    for (;;) {
      const ref: Ref<P> = `${prefix}_${this.random.chars(26)}`;
      if (!this.issued.has(ref)) {
        this.issued.add(ref);
        return ref;
      }
    }
  }
}

export function isReference<P extends Prefix>(value: unknown, prefix: P): value is Ref<P> {
  return typeof value === 'string' && value.startsWith(`${prefix}_`) && REFERENCE_PATTERN.test(value);
}
