import { configDefaults } from 'vitest/config';
import { packageTests } from '../../vitest.base.ts';

// CLI runs against the sandbox process hundreds of lines each: give them room on a loaded machine.
// The code corpus holds partners' V1 code, tests included (nock, msw): inputs of the rewriter, not tests to run.
export default packageTests({
  testTimeout: 30_000,
  exclude: [...configDefaults.exclude, 'test/code-corpus/**'],
});
