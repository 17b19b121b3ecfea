import { describe, expect, test } from 'vitest';
import { RATE_LIMIT_ROUTES } from './generated/rate-limit-routes.ts';
import { OPERATIONS } from './index.ts';

/** The reference's Limits table, written out by hand: the routes that spend a dedicated bucket. */
const DEDICATED = {
  'POST /images': ['default', 'uploads'],
  'POST /evidence': ['default', 'uploads'],
  'GET /renders/{renderReference}/media': ['default', 'downloads'],
  'GET /renders/{renderReference}/thumbnail': ['default', 'downloads'],
  'GET /products/{productReference}/media/{filename}': ['default', 'downloads'],
} as const satisfies Record<string, readonly string[]>;

describe('RATE_LIMIT_ROUTES (generated from x-rate-limit-buckets)', () => {
  test('lists every operation once, with its method and path template', () => {
    expect(RATE_LIMIT_ROUTES.map((r) => r.operationId).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const route of RATE_LIMIT_ROUTES) {
      const operation = OPERATIONS[route.operationId as keyof typeof OPERATIONS];
      expect(`${route.method} ${route.path}`).toBe(`${operation.method.toUpperCase()} ${operation.path}`);
    }
  });

  test('uploads and downloads spend default plus their own bucket; everything else default only', () => {
    for (const route of RATE_LIMIT_ROUTES) {
      const key = `${route.method} ${route.path}`;
      const expected = (DEDICATED as Record<string, readonly string[]>)[key] ?? ['default'];
      expect([key, route.buckets]).toEqual([key, expected]);
    }
  });
});
