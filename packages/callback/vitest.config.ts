import { packageTestsTwoAtOnce } from '../../vitest.base.ts';

// Two at a time (and in `pnpm test`, beside the checks of what ships): parsing, URLs, redaction, the spec
// and fuzzed handlers without a window; no clock, no duration bounded from above. The others run alone
// after them: real coalescing windows, leases and command deadlines, a fleet of processes and Redis.
export default packageTestsTwoAtOnce([
  'src/build-url.test.ts',
  'src/exports.test.ts',
  'src/fake-timers.test.ts',
  'src/handler.fuzz.test.ts',
  'src/node/index.test.ts',
  'src/parse.fuzz.test.ts',
  'src/redact.test.ts',
  'src/redis/options.test.ts',
  'src/url-like.test.ts',
  'test/imports.test.ts',
  'test/spec.test.ts',
]);
