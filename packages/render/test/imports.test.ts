import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { valueImportsOf } from '../../../test-utils/imports.ts';

// The client's error classes come from @partner-print/client/errors: an import of the client's main entry loads
// the client, the scheduler and openapi-fetch under Node, and a CommonJS bundle of this package packed them
// whole (71.6 kB min+gzip from the published packages, against 20.4 kB now).
it("imports no value from the client's main entry", () => {
  expect(valueImportsOf(fileURLToPath(new URL('../src', import.meta.url)), '@partner-print/client')).toEqual(
    [],
  );
});
