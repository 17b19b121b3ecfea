import { packageTests } from '../../vitest.base.ts';

// The simulated multi-process runs and the real redis-server take seconds on a loaded machine.
export default packageTests({ testTimeout: 30_000, hookTimeout: 30_000 });
