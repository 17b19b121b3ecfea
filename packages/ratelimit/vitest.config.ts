import { packageTestsTwoAtOnce } from '../../vitest.base.ts';

// The simulated multi-process runs and the real redis-server take seconds on a loaded machine.
// Two at a time (and in `pnpm test`, beside the checks of what ships): these run on virtual clocks or
// none, and the Redis twins pass virtual times to a store without command deadlines. The others run
// alone after them: fairness and pauses simulated against real answers, a process that must exit by
// itself, Redis stopped and restarted under a live scheduler, real answers under a virtual wait.
export default packageTestsTwoAtOnce(
  [
    'src/admission.test.ts',
    'src/bucket.test.ts',
    'src/context.test.ts',
    'src/deque.test.ts',
    'src/exports.test.ts',
    'src/failover.test.ts',
    'src/fast-list.test.ts',
    'src/lanes.test.ts',
    'src/parse.test.ts',
    'src/routes.test.ts',
    'src/scheduler.test.ts',
    'test/sandbox.test.ts',
    'test/twins.test.ts',
    'test/wire-agreement.test.ts',
  ],
  { testTimeout: 30_000, hookTimeout: 30_000 },
);
