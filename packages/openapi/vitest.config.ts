import { packageTests } from '../../vitest.base.ts';

// Two files at once (vitest's default on 2 cores is one): no test here holds a timing or fairness
// assertion that a second file beside it could break. `pnpm test` runs this suite beside the checks of
// what ships (an untimed suite, --mode=files: a worker's files share its modules): the timeout only
// bounds a hang, on a machine that may be busy.
export default packageTests({ maxWorkers: 2, testTimeout: 30_000 });
