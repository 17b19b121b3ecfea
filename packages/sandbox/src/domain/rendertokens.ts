import { renderWeek } from '../rendertokens.ts';
import type { Organization } from '../state.ts';

/** The organization's rendertoken account for the current week (used resets every Monday 00:00 Amsterdam). */
export function rendertokens(
  org: Organization,
  now: number,
): {
  used: number;
  limit: number;
  remaining: number;
  resets: string;
  reset: number;
} {
  const week = renderWeek(now);
  if (org.rendertokens.weekStart !== week.start) org.rendertokens = { weekStart: week.start, used: 0 };
  const { used } = org.rendertokens;
  const limit = org.rendertokenLimit;
  return { used, limit, remaining: Math.max(0, limit - used), resets: week.resets, reset: week.reset };
}

/** Deducts a render's cost, or says how long until the weekly reset when the tokens do not cover it. */
export function spendRendertokens(
  org: Organization,
  cost: number,
  now: number,
): { kind: 'spent' } | { kind: 'exceeded'; remaining: number; resets: string; retryAfter: number } {
  const tokens = rendertokens(org, now);
  if (tokens.remaining < cost) {
    const retryAfter = Math.max(1, Math.ceil((tokens.reset - now) / 1000));
    return { kind: 'exceeded', remaining: tokens.remaining, resets: tokens.resets, retryAfter };
  }
  org.rendertokens.used += cost;
  return { kind: 'spent' };
}
