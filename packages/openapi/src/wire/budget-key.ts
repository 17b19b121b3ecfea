import { sha256Hex } from './hash.ts';

/**
 * The rate-limit budget key of a secret key when none is given: `sha256:<hex>`, so every key of one
 * organization that a client and a standalone scheduler share one store with spends one budget, and the key
 * itself never reaches the store. Written only here: if two packages built it differently, they would
 * silently stop sharing a budget.
 */
export async function budgetKeyOf(secretKey: string): Promise<string> {
  return `sha256:${await sha256Hex(secretKey)}`;
}
