import { packageTests } from '../../vitest.base.ts';

// CLI runs against the sandbox process hundreds of lines each: give them room on a loaded machine.
export default packageTests({ testTimeout: 30_000 });
