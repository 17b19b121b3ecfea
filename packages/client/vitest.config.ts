import { packageTestsTwoAtOnce } from '../../vitest.base.ts';

// Two at a time: files on the sandbox's virtual clock or with no clock at all, no real deadline, no
// redis-server, no count of listeners or queue time. Every other file (deadlines, timeouts of a few ms,
// the Redis twins and fleets, listener counts, telemetry timings) runs alone after them.
export default packageTestsTwoAtOnce([
  'src/config.test.ts',
  'src/redis/claims.test.ts',
  'test/context.test.ts',
  'test/demo.test.ts',
  'test/docs-links.test.ts',
  'test/exports-redis.test.ts',
  'test/exports-telemetry.test.ts',
  'test/exports.test.ts',
  'test/foreign-blob.test.ts',
  'test/upload-iterable.test.ts',
  'test/foreign-headers.test.ts',
  'test/header-collections.test.ts',
  'test/hostile.test.ts',
  'test/import-cycles.test.ts',
  'test/lite.test.ts',
  'test/loggers.test.ts',
  'test/node-stream-body.test.ts',
  'test/order-type-errors.test.ts',
  'test/other-realm.test.ts',
  'test/paths.test.ts',
  'test/orders.test.ts',
  'test/redirects.test.ts',
  'test/retry-budget.test.ts',
  'test/scheduler-close.test.ts',
  'test/sandbox.test.ts',
  'test/two-copies.test.ts',
]);
