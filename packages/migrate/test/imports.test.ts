import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { valueImportsOf } from '../../../test-utils/imports.ts';

// The client's error classes come from @partner-print/client/errors: an import of the client's main entry loads
// the client, the scheduler and openapi-fetch under Node, and a CommonJS bundle of this package packed them
// whole (74.0 kB min+gzip from the published packages, against 18.3 kB now). The CLI (src/node, Node only)
// makes a client: it imports it.
it("imports no value from the client's main entry outside the CLI", () => {
  const src = fileURLToPath(new URL('../src', import.meta.url));
  expect(valueImportsOf(src, '@partner-print/client', /^node\//)).toEqual([]);
});
