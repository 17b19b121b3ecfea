import { packageTestsTwoAtOnce } from '../../vitest.base.ts';

// Two at a time: these count posts, renders and tokens, and their timing tests bound only from below.
// The fleet test (4 worker processes and a redis-server, busy on both cores) runs alone after them: a file
// beside it was slowed past its 5 s timeout on a loaded machine.
export default packageTestsTwoAtOnce(
  [
    'src/compatibility.test.ts',
    'src/exports.test.ts',
    'src/placeholder.test.ts',
    'src/redis/options.test.ts',
    'src/redis/store.test.ts',
    'src/redis/twins.test.ts',
    'src/reset.test.ts',
    'src/shared-context.test.ts',
    'src/shared.test.ts',
    'test/edges.test.ts',
    'test/imports.test.ts',
    'test/many.test.ts',
    'test/render.test.ts',
    'test/reset-sandbox.test.ts',
    'test/telemetry.test.ts',
    'test/two-copies.test.ts',
  ],
  {},
  ['test/two-copies.test.ts'],
);
