import { packageTests } from '../../vitest.base.ts';

// Two files at once (vitest's default on 2 cores is one): no test here holds a timing or fairness
// assertion that a second file beside it could break (the clock tests bound from below or within 1 s);
// each worker appends the operations its files exercised to a file of its own (per pid).
// `pnpm test` runs this suite beside the checks of what ships (an untimed suite, --mode=files: a worker's
// files share its modules): its fuzz tests took more than vitest's default 5 s there at load 10, so the
// timeout only bounds a hang.
export default packageTests({
  globalSetup: ['test/global-setup.ts'],
  maxWorkers: 2,
  testTimeout: 30_000,
});
