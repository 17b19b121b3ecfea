import { configDefaults } from 'vitest/config';
import { packageTestsTwoAtOnce } from '../../vitest.base.ts';

// CLI runs against the sandbox process hundreds of lines each: give them room on a loaded machine.
// The code corpus holds partners' V1 code, tests included (nock, msw): inputs of the rewriter, not tests to run.
// Two at a time (and in `pnpm test`, beside the checks of what ships): these count lines, lookups, orders
// and bytes and bound no duration from above but by a hang bound (the CLI's process exits within 15 s of
// Ctrl-C: about 2 s, 29 s when it hung). The others run alone after them: Ctrl-C within 2 s, a
// run that ends within 2.5 s or 15 s, and claims in a real redis-server whose windows are real time.
export default packageTestsTwoAtOnce(
  [
    'src/case.test.ts',
    'src/code/axios-config.test.ts',
    'src/code/base-url.test.ts',
    'src/code/callback-reads.test.ts',
    'src/code/catch-forms.test.ts',
    'src/code/catch.test.ts',
    'src/code/credentials.test.ts',
    'src/code/jsonc.test.ts',
    'src/code/key-order.test.ts',
    'src/code/order-reads.test.ts',
    'src/code/transform-guard.test.ts',
    'src/code/transform.test.ts',
    'src/code/values.test.ts',
    'src/convert.test.ts',
    'src/endpoints.test.ts',
    'src/exports.test.ts',
    'src/image.test.ts',
    'src/node/files.test.ts',
    'src/node/warnings.test.ts',
    'src/resolver.test.ts',
    'src/sku.test.ts',
    'src/v1-adapter.test.ts',
    'test/adapter-imports.test.ts',
    'test/audit.test.ts',
    'test/catch-files.test.ts',
    'test/cli-interrupt.test.ts',
    'test/code-cli.test.ts',
    'test/code-corpus.test.ts',
    'test/code-sandbox.test.ts',
    'test/dry-run-catalog.test.ts',
    'test/errors.test.ts',
    'test/hostile.test.ts',
    'test/imports.test.ts',
    'test/order-shape.test.ts',
    'test/orders.test.ts',
    'test/project-imports.test.ts',
    'test/references.test.ts',
    'test/scale.test.ts',
    'test/skus.test.ts',
    'test/stock-shape.test.ts',
    'test/telemetry.test.ts',
  ],
  { testTimeout: 30_000, exclude: [...configDefaults.exclude, 'test/code-corpus/**'] },
  // Each with a module graph of its own in `--mode=untimed`: they replace modules with vi.mock (the
  // rewriter's consumer table; the partners' HTTP libraries) and code-sandbox re-imports rewritten
  // modules after vi.resetModules, so a module another file evaluated first would escape the mock.
  ['src/code/transform-guard.test.ts', 'test/code-sandbox.test.ts'],
);
